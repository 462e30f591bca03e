// GatewayJdbc — Flink's JDBC driver against a SQL gateway (Flink's or weir's): DDL, a batch query
// and a bounded streaming query with their column types and values, and a bad statement's error.
// Usage: java -cp <driver bundle>:. GatewayJdbc 127.0.0.1:PORT   (prints a transcript on stdout)
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

public class GatewayJdbc {
    static void update(Statement st, String sql) throws SQLException {
        boolean rs = st.execute(sql);
        System.out.println("execute: " + sql.split(" ")[0] + " -> result set " + rs);
    }

    static void query(Statement st, String sql) throws SQLException {
        System.out.println("query: " + sql);
        try (ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder h = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++)
                h.append(i > 1 ? " | " : "").append(md.getColumnName(i)).append(' ').append(md.getColumnTypeName(i))
                 .append(" (").append(md.getColumnType(i)).append(", ").append(md.getColumnClassName(i)).append(")");
            System.out.println("  columns: " + h);
            while (rs.next()) {
                StringBuilder r = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object o = rs.getObject(i);
                    r.append(i > 1 ? " | " : "").append(o).append(o == null ? "" : " <" + o.getClass().getSimpleName() + ">");
                }
                System.out.println("  row: " + r);
            }
        }
    }

    static String rootLine(Throwable e) {
        String last = e.getClass().getName() + ": " + String.valueOf(e.getMessage()).split("\n")[0];
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (String l : String.valueOf(t.getMessage()).split("\n"))
                if (l.startsWith("Caused by: ")) last = l.substring(11);
        }
        return last;
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:flink://" + args[0]);
             Statement st = c.createStatement()) {
            update(st, "CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '4', "
                    + "'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '4', 'fields.v.length' = '2')");
            update(st, "SET 'execution.runtime-mode' = 'batch'");
            query(st, "SELECT k, CAST(k AS BIGINT) * 10 AS b, CAST(k AS DECIMAL(5, 2)) / 4 AS d, CAST(k AS DOUBLE) / 2 AS x, "
                    + "k % 2 = 0 AS e, DATE '2024-01-02' AS dt, TIMESTAMP '2024-01-02 03:04:05.678' AS ts, "
                    + "CAST('s' || CAST(k AS STRING) AS VARCHAR(10)) AS s FROM src");
            update(st, "SET 'execution.runtime-mode' = 'streaming'");
            query(st, "SELECT k, UPPER('a') AS u FROM src WHERE k > 2");
            try {
                query(st, "SELECT * FROM no_such_table");
            } catch (Exception e) {     // Flink's driver throws its SqlExecutionException
                System.out.println("error: " + rootLine(e));
            }
        }
    }
}
