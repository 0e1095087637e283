package org.quadfence.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.demo.Demo;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobEnvironment;
import org.quadfence.job.JobOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code ./quadfence} command: {@code demo}, {@code replay} and {@code run}. */
public final class Main {

    static final String USAGE =
            String.join(
                    "\n",
                    "usage:",
                    "  " + Demo.USAGE,
                    "  quadfence replay --fences F --positions P --output O [--dlq D]"
                            + " [--parallelism N] [--config FILE] [--key value ...]",
                    "  quadfence run [--config FILE] [--key value ...]",
                    "options (--key value): " + String.join(", ", JobOptions.KNOWN.keySet()));

    private Main() {}

    public static void main(String[] args) throws Exception {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("quadfence: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
            System.out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "replay":
                return replay(rest);
            case "run":
                return runKafka(rest);
            case "demo":
                return Demo.command(rest);
            default:
                throw new IllegalArgumentException("unknown command '" + args[0] + "'\n" + USAGE);
        }
    }

    private static int replay(String[] args) throws Exception {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("fences", null);
        own.put("positions", null);
        own.put("output", null);
        own.put("dlq", null);
        JobOptions options = JobOptions.of(JobOptions.parseArgs(args, own));
        Path fences = existing(own, "fences");
        Path positions = existing(own, "positions");
        if (own.get("output") == null) {
            throw new IllegalArgumentException("replay needs --output FILE\n" + USAGE);
        }
        Path output = Path.of(own.get("output"));
        Path dlq =
                own.get("dlq") != null
                        ? Path.of(own.get("dlq"))
                        : output.resolveSibling(output.getFileName() + ".dlq");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(localConfig());
        JobEnvironment.configure(env, options, false);
        GeofenceJob.build(
                env,
                options,
                Wiring.files(fences, positions, output, dlq, Wiring.rules(options)));
        env.execute(options.get("job-name") + " replay");
        return 0;
    }

    private static int runKafka(String[] args) throws Exception {
        JobOptions options = JobOptions.fromArgs(args);
        Configuration conf = localConfig();
        // Flink's default keeps checkpoints in the JobManager's memory, capped at 5 MB.
        conf.setString(
                "execution.checkpointing.dir",
                Path.of("quadfence-checkpoints").toAbsolutePath().toUri().toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        JobEnvironment.configure(env, options, true);
        GeofenceJob.build(env, options, Wiring.kafka(options, false));
        System.out.println("Flink web UI: http://127.0.0.1:" + conf.get(RestOptions.PORT));
        env.execute(options.get("job-name"));
        return 0;
    }

    private static Path existing(Map<String, String> own, String key) {
        String v = own.get(key);
        if (v == null) {
            throw new IllegalArgumentException("replay needs --" + key + " FILE\n" + USAGE);
        }
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("--" + key + ": no such file: " + p);
        }
        return p;
    }

    /** A local Flink that listens on loopback only. */
    public static Configuration localConfig() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        return conf;
    }
}
