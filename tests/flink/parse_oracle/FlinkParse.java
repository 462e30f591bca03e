import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.sql.parser.validate.FlinkSqlConformance;
import org.apache.flink.table.planner.delegation.FlinkSqlParserFactories;
import org.apache.flink.table.planner.parse.CalciteParser;
import java.nio.file.*;
import java.util.*;

// FlinkParse: each statement of a file (separated by lines "----") through Flink 2.3.0's own SQL parser
// (CalciteParser with the planner's configuration); prints "==== <statement>" and the root cause of
// its error ("OK" when it parses). Used by compare.py.
public class FlinkParse {
  public static void main(String[] a) throws Exception {
    SqlParser.Config cfg = SqlParser.config()
      .withParserFactory(FlinkSqlParserFactories.create(FlinkSqlConformance.DEFAULT))
      .withConformance(FlinkSqlConformance.DEFAULT).withLex(Lex.JAVA).withIdentifierMaxLength(256);
    CalciteParser p = new CalciteParser(cfg);
    // input: statements separated by lines "----"
    String all = new String(Files.readAllBytes(Paths.get(a[0])));
    for (String s : all.split("\n----\n")) {
      if (s.trim().isEmpty()) continue;
      System.out.println("==== " + s.replace("\n", "\\n"));
      try { p.parseSqlList(s); System.out.println("OK"); }
      catch (Throwable t) {
        Throwable r = t; while (r.getCause() != null && r.getCause() != r) r = r.getCause();
        System.out.println(r.toString());
      }
    }
  }
}
