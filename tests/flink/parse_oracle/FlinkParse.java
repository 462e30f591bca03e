import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.delegation.Parser;
import java.nio.file.*;

// FlinkParse: each statement of a file (separated by lines "----") through the parser Flink 2.3.0's
// SQL client uses for a statement (TableEnvironment's Parser: the client's extended parser for SET /
// RESET / HELP / QUIT / CLEAR, then Calcite's parser, the validator and the conversion to an
// operation; no cluster, nothing is executed, an empty default catalog). Prints "==== <statement>"
// and the root cause of its error ("OK" when it converts). Used by compare.py.
public class FlinkParse {
  public static void main(String[] a) throws Exception {
    TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    Parser p = ((TableEnvironmentInternal) env).getParser();
    String all = new String(Files.readAllBytes(Paths.get(a[0])));
    for (String s : all.split("\n----\n")) {
      if (s.trim().isEmpty()) continue;
      System.out.println("==== " + s.replace("\n", "\\n"));
      try { p.parse(s); System.out.println("OK"); }
      catch (Throwable t) {
        Throwable r = t; while (r.getCause() != null && r.getCause() != r) r = r.getCause();
        System.out.println(r.toString());
      }
    }
  }
}
