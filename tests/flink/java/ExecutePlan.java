// ExecutePlan.java — runs a compiled plan file through Flink's Table API
// (TableEnvironment.executePlan, the program path beside the SQL client's EXECUTE PLAN) and waits
// for the job to end. Used by tests/flink/scale_out.sh with a plan weir compiled.
// Usage: flink run -c ExecutePlan execute-plan.jar <plan.json> [parallelism]
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.TableEnvironment;

public final class ExecutePlan {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) throw new IllegalArgumentException("usage: ExecutePlan <plan.json> [parallelism]");
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (args.length > 1) env.getConfig().set("parallelism.default", args[1]);
        env.executePlan(PlanReference.fromFile(args[0])).await();
    }
}
