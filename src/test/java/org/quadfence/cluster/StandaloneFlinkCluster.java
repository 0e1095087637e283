package org.quadfence.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Flink session cluster as a user runs one: a JobManager and a TaskManager, each its own JVM,
 * started the way Flink's bin/jobmanager.sh and bin/taskmanager.sh start them, from a lib directory
 * of Flink's jars (here target/flink-lib, copied by the pom: flink-dist is not on Maven Central)
 * and a conf directory with a config.yaml. Everything listens on 127.0.0.1 and lives in one working
 * directory. Talks to the cluster through its REST API only. For failure tests, the TaskManager can
 * be killed with SIGKILL and replaced by a fresh one.
 */
final class StandaloneFlinkCluster implements AutoCloseable {

    /** Flink's JVM flags for Java 17: env.java.opts.all of its default config.yaml. */
    static final List<String> JAVA_17_FLAGS =
            List.of(
                    "-XX:+IgnoreUnrecognizedVMOptions",
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path conf;
    private final Path logs;
    private final String classpath;
    private final int restPort;
    private final HttpClient http;

    /** Every process started, killed ones included; all are stopped in {@link #close}. */
    private final List<Process> processes = new ArrayList<>();

    /** Processes ended on purpose ({@link #killTaskManager}): their end is no failure. */
    private final Set<Process> killed = new HashSet<>();

    /** BashJavaUtils' answer per command: the same configuration gives the same answer. */
    private final Map<String, List<String>> resourceParams = new HashMap<>();

    /** The config.yaml's entries, for the JVM flags of env.java.opts.*. */
    private final Map<String, String> config = new LinkedHashMap<>();

    private final Thread shutdownHook;
    private Process taskManager;
    private int taskManagersStarted;

    private StandaloneFlinkCluster(Path dir, String classpath, int restPort) {
        this.dir = dir;
        this.conf = dir.resolve("conf");
        this.logs = dir.resolve("log");
        this.classpath = classpath;
        this.restPort = restPort;
        this.http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
        // Should the test JVM end without close() (a timeout kill, Ctrl-C), take the cluster along.
        this.shutdownHook = new Thread(this::killAll, "flink-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Writes the configuration into {@code dir} and starts a JobManager and a TaskManager with
     * {@code slots} slots; returns without waiting for them (see {@link #awaitTaskManagers}).
     */
    static StandaloneFlinkCluster start(Path libDir, Path dir, int slots) throws IOException {
        return start(libDir, dir, slots, Map.of());
    }

    /**
     * As {@link #start(Path, Path, int)}, with {@code settings} added to (or replacing entries of)
     * the config.yaml, such as heartbeat intervals for a test that kills TaskManagers.
     */
    static StandaloneFlinkCluster start(
            Path libDir, Path dir, int slots, Map<String, String> settings) throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(libDir)) {
            jars = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
        }
        if (jars.stream().noneMatch(j -> j.getFileName().toString().startsWith("flink-runtime-"))) {
            throw new IllegalStateException(
                    libDir + " holds no Flink runtime: run `mvn verify`, which copies it there");
        }
        String classpath =
                jars.stream()
                        .map(j -> j.toAbsolutePath().toString())
                        .collect(Collectors.joining(File.pathSeparator));
        StandaloneFlinkCluster cluster =
                new StandaloneFlinkCluster(dir.toAbsolutePath(), classpath, freePort());
        try {
            cluster.writeConfiguration(slots, settings);
            cluster.startProcess(
                    "jobmanager",
                    "GET_JM_RESOURCE_PARAMS",
                    "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint");
            cluster.startTaskManager();
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void writeConfiguration(int slots, Map<String, String> settings) throws IOException {
        for (String d : List.of("conf", "log", "tmp", "io", "upload", "web", "blobs")) {
            Files.createDirectories(dir.resolve(d));
        }
        Map<String, String> c = new LinkedHashMap<>();
        c.put("jobmanager.rpc.address", "127.0.0.1");
        c.put("jobmanager.rpc.port", String.valueOf(freePort()));
        c.put("jobmanager.bind-host", "127.0.0.1");
        c.put("taskmanager.bind-host", "127.0.0.1");
        c.put("taskmanager.host", "127.0.0.1");
        c.put("rest.address", "127.0.0.1");
        c.put("rest.bind-address", "127.0.0.1");
        c.put("rest.port", String.valueOf(restPort));
        c.put("taskmanager.numberOfTaskSlots", String.valueOf(slots));
        c.put("parallelism.default", "1");
        c.put("jobmanager.memory.process.size", "1024m");
        c.put("taskmanager.memory.process.size", "2048m");
        c.put("state.backend.type", "hashmap");
        c.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        c.put("execution.checkpointing.savepoint-dir", savepointDir().toUri().toString());
        c.put("io.tmp.dirs", dir.resolve("io").toString());
        c.put("web.upload.dir", dir.resolve("upload").toString());
        c.put("web.tmpdir", dir.resolve("web").toString());
        c.put("blob.storage.directory", dir.resolve("blobs").toString());
        c.putAll(settings);
        config.putAll(c);
        StringBuilder yaml = new StringBuilder();
        c.forEach((k, v) -> yaml.append(k).append(": ").append(quote(v)).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = file",
                        "appender.file.name = file",
                        "appender.file.type = File",
                        "appender.file.append = false",
                        "appender.file.fileName = ${sys:log.file}",
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        "logger.kafka.name = org.apache.kafka",
                        "logger.kafka.level = WARN",
                        // When each Kafka partition goes idle.
                        "logger.idle.name = org.quadfence.kafka.IdleWhileLeadersAnswer",
                        "logger.idle.level = DEBUG",
                        ""));
    }

    private static String quote(String v) {
        return "'" + v.replace("'", "''") + "'";
    }

    /** Where savepoints go unless a request names another directory. */
    Path savepointDir() {
        return dir.resolve("savepoints");
    }

    /**
     * Starts a TaskManager, the first one or one to replace a killed one; its log files are named
     * taskmanager (the first) or taskmanager-N. Returns without waiting for it to register.
     */
    void startTaskManager() throws IOException {
        taskManagersStarted++;
        taskManager =
                startProcess(
                        taskManagersStarted == 1
                                ? "taskmanager"
                                : "taskmanager-" + taskManagersStarted,
                        "GET_TM_RESOURCE_PARAMS",
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
    }

    /**
     * Kills the current TaskManager with SIGKILL, as the kernel's OOM killer or a lost machine
     * would: no shutdown hooks, no goodbye to the JobManager, open Kafka transactions left open.
     * Waits until the process is gone and returns its pid.
     */
    long killTaskManager() throws InterruptedException {
        Process p = taskManager;
        if (p == null || !p.isAlive()) {
            throw new IllegalStateException("no TaskManager running to kill");
        }
        // The process is the JVM itself (java started directly, no shell in between), so SIGKILL
        // reaches the TaskManager and not a wrapper that would leave it running.
        String command = p.info().command().orElse("");
        if (!command.endsWith(File.separator + "java")) {
            throw new IllegalStateException("the TaskManager process is not a JVM: " + command);
        }
        killed.add(p);
        taskManager = null;
        p.destroyForcibly();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("TaskManager " + p.pid() + " outlived SIGKILL");
        }
        // 128 + 9: ended by SIGKILL, not by an orderly exit that happened to come first.
        if (p.exitValue() != 137) {
            throw new IllegalStateException(
                    "TaskManager " + p.pid() + " ended with " + p.exitValue() + ", not by SIGKILL");
        }
        return p.pid();
    }

    /** The pid of the current TaskManager's JVM. */
    long taskManagerPid() {
        if (taskManager == null) {
            throw new IllegalStateException("no TaskManager running");
        }
        return taskManager.pid();
    }

    /**
     * Asks BashJavaUtils for the process's memory settings, as Flink's scripts do (its last two
     * lines: JVM flags, then -D properties), and starts {@code mainClass} with them.
     */
    private Process startProcess(String name, String resourceCommand, String mainClass)
            throws IOException {
        List<String> params = resourceParams.get(resourceCommand);
        if (params == null) {
            params = bashJavaUtils(name, resourceCommand);
            resourceParams.put(resourceCommand, params);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(JAVA_17_FLAGS);
        cmd.addAll(Arrays.asList(params.get(0).trim().split("\\s+")));
        // As Flink's scripts do: env.java.opts.all, then the process kind's own.
        String kind = resourceCommand.startsWith("GET_TM") ? "taskmanager" : "jobmanager";
        for (String key : List.of("env.java.opts.all", "env.java.opts." + kind)) {
            String opts = config.getOrDefault(key, "").trim();
            if (!opts.isEmpty()) {
                cmd.addAll(Arrays.asList(opts.split("\\s+")));
            }
        }
        cmd.addAll(logFlags(name));
        cmd.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        cmd.add("-classpath");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.add("--configDir");
        cmd.add(conf.toString());
        cmd.addAll(Arrays.asList(params.get(1).trim().split("\\s+")));
        Process p =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(logs.resolve(name + ".out").toFile())
                        .start();
        processes.add(p);
        return p;
    }

    private List<String> bashJavaUtils(String name, String command) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-Xmx256m");
        cmd.addAll(logFlags(name + "-resources"));
        cmd.add("-classpath");
        cmd.add(classpath);
        cmd.add("org.apache.flink.runtime.util.bash.BashJavaUtils");
        cmd.add(command);
        cmd.add("--configDir");
        cmd.add(conf.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> out = new ArrayList<>();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            r.lines().forEach(out::add);
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " failed:\n" + String.join("\n", out));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException(e);
        }
        List<String> results =
                out.stream()
                        .filter(l -> l.startsWith(RESULT_PREFIX))
                        .map(l -> l.substring(RESULT_PREFIX.length()))
                        .toList();
        if (results.size() != 2) {
            throw new IllegalStateException(
                    command + " gave no JVM flags and properties:\n" + String.join("\n", out));
        }
        return results;
    }

    private List<String> logFlags(String name) {
        return List.of(
                "-Dlog.file=" + logs.resolve(name + ".log"),
                "-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    // ---------------------------------------------------------------- REST

    /** Waits until {@code count} TaskManagers with {@code slots} slots each have registered. */
    void awaitTaskManagers(int count, int slots, Duration timeout) throws Exception {
        await(
                "TaskManagers to register",
                timeout,
                () -> {
                    JsonNode tms = get("/taskmanagers").path("taskmanagers");
                    int ready = 0;
                    for (JsonNode tm : tms) {
                        if (tm.path("slotsNumber").asInt() == slots) {
                            ready++;
                        }
                    }
                    return ready == count;
                });
    }

    /** Uploads a job jar as {@code flink run} or the web UI would; returns its id. */
    String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "quadfence-" + UUID.randomUUID();
        byte[] head =
                ("--"
                                + boundary
                                + "\r\n"
                                + "Content-Disposition: form-data; name=\"jarfile\"; filename=\""
                                + jar.getFileName()
                                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpRequest request =
                HttpRequest.newBuilder(uri("/jars/upload"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(
                                HttpRequest.BodyPublishers.concat(
                                        HttpRequest.BodyPublishers.ofByteArray(head),
                                        HttpRequest.BodyPublishers.ofFile(jar),
                                        HttpRequest.BodyPublishers.ofByteArray(tail)))
                        .build();
        JsonNode response = send(request);
        String file = response.path("filename").asText();
        if (!"success".equals(response.path("status").asText()) || file.isEmpty()) {
            throw new IllegalStateException("jar upload failed: " + response);
        }
        return Path.of(file).getFileName().toString();
    }

    /**
     * Writes the job's properties file {@code file}: the topics {@link KafkaTopics#createJobTopics}
     * creates, earliest starting offsets, exactly-once delivery, then {@code options} (key=value
     * lines, each ending in a newline). Returns the job's arguments that name that file, {@code
     * kafka}'s broker and a checkpoint a second.
     */
    static List<String> jobArguments(Path file, KafkaBroker kafka, String options)
            throws IOException {
        Files.writeString(
                file,
                String.join(
                                "\n",
                                "positions-topic=positions",
                                "fences-topic=fences",
                                "events-topic=geofence-events",
                                "dlq-topic=geofence-dlq",
                                "starting-offsets=earliest",
                                "delivery=exactly-once",
                                "")
                        + options);
        return List.of(
                "--config",
                file.toString(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--checkpoint-interval",
                "1s");
    }

    /**
     * Runs an uploaded jar's main class (its manifest's) with {@code args}; from {@code savepoint}
     * when not null. Returns the job id.
     */
    String runJar(String jarId, List<String> args, int parallelism, String savepoint)
            throws IOException, InterruptedException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("programArgsList", args);
        body.put("parallelism", parallelism);
        if (savepoint != null) {
            body.put("savepointPath", savepoint);
            body.put("allowNonRestoredState", false);
        }
        String jobId = post("/jars/" + jarId + "/run", body).path("jobid").asText();
        if (jobId.isEmpty()) {
            throw new IllegalStateException("no job id from /jars/" + jarId + "/run");
        }
        return jobId;
    }

    /** The job's state (RUNNING, FINISHED, ...). */
    String jobState(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId).path("state").asText();
    }

    /** Waits until the job and all its tasks run. */
    void awaitRunning(String jobId, Duration timeout) throws Exception {
        await(
                "job " + jobId + " to run",
                timeout,
                () -> {
                    JsonNode job = get("/jobs/" + jobId);
                    String state = job.path("state").asText();
                    if (state.equals("FAILED") || state.equals("CANCELED")) {
                        throw new IllegalStateException("job " + jobId + " is " + state);
                    }
                    boolean all = job.path("vertices").size() > 0;
                    for (JsonNode v : job.path("vertices")) {
                        all &= v.path("status").asText().equals("RUNNING");
                    }
                    return state.equals("RUNNING") && all;
                });
    }

    /**
     * Stops the job with a savepoint into {@code target} ({@code drain}: first let the watermark
     * pass everything), waits until the job is finished, and returns the savepoint's path.
     */
    String stopWithSavepoint(String jobId, Path target, boolean drain, Duration timeout)
            throws Exception {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("targetDirectory", target.toUri().toString());
        body.put("drain", drain);
        String trigger = post("/jobs/" + jobId + "/stop", body).path("request-id").asText();
        String[] location = new String[1];
        await(
                "the savepoint of job " + jobId,
                timeout,
                () -> {
                    JsonNode r = get("/jobs/" + jobId + "/savepoints/" + trigger);
                    if (!r.path("status").path("id").asText().equals("COMPLETED")) {
                        return false;
                    }
                    JsonNode op = r.path("operation");
                    if (op.has("failure-cause")) {
                        throw new IllegalStateException("stop with savepoint failed: " + op);
                    }
                    location[0] = op.path("location").asText();
                    return true;
                });
        await("job " + jobId + " to finish", timeout, () -> jobState(jobId).equals("FINISHED"));
        return location[0];
    }

    /**
     * The sums over subtasks of the job's metrics whose names contain one of {@code words}, such as
     * the job's counters of late records and dead letters; for a failure report.
     */
    Map<String, Double> metrics(String jobId, List<String> words)
            throws IOException, InterruptedException {
        // The REST endpoint's metric store fills on demand: the first answers can be empty.
        Map<String, Double> out = Map.of();
        for (int i = 0; i < 5 && out.isEmpty(); i++) {
            Thread.sleep(i * 1000L);
            out = metricsOnce(jobId, words);
        }
        return out;
    }

    private Map<String, Double> metricsOnce(String jobId, List<String> words)
            throws IOException, InterruptedException {
        Map<String, Double> out = new TreeMap<>();
        for (JsonNode v : get("/jobs/" + jobId).path("vertices")) {
            String base = "/jobs/" + jobId + "/vertices/" + v.path("id").asText();
            List<String> names = new ArrayList<>();
            for (JsonNode m : get(base + "/subtasks/metrics")) {
                String id = m.path("id").asText();
                if (words.stream().anyMatch(id::contains)) {
                    names.add(id);
                }
            }
            if (!names.isEmpty()) {
                String query = String.join(",", names);
                for (JsonNode m :
                        get(
                                base
                                        + "/subtasks/metrics?get="
                                        + URLEncoder.encode(query, StandardCharsets.UTF_8))) {
                    out.merge(m.path("id").asText(), m.path("sum").asDouble(), Double::sum);
                }
            }
        }
        return out;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(
                HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    JsonNode post(String path, Object body) throws IOException, InterruptedException {
        return send(
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(120))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                        .build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 503) {
            throw new NotReady(request.method() + " " + request.uri() + ": 503 " + r.body());
        }
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(
                    request.method()
                            + " "
                            + request.uri()
                            + ": "
                            + r.statusCode()
                            + " "
                            + r.body());
        }
        return JSON.readTree(r.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + restPort + path);
    }

    /**
     * A 503 from the REST API: the JobManager is up but not ready, such as during its leader
     * election at start.
     */
    static final class NotReady extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotReady(String message) {
            super(message);
        }
    }

    /** A condition that may fail while the cluster is not up yet. */
    interface Check {
        boolean holds() throws Exception;
    }

    /**
     * Polls {@code check} until it holds; connection refusals and 503 answers count as "not yet".
     * Fails when a Flink process died (other than by {@link #killTaskManager}) or the time is up.
     */
    void await(String what, Duration timeout, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive() && !killed.contains(p)) {
                    throw new IllegalStateException(
                            "a Flink process ended (exit "
                                    + p.exitValue()
                                    + ") "
                                    + "awaiting "
                                    + what);
                }
            }
            try {
                if (check.holds()) {
                    return;
                }
            } catch (ConnectException | NotReady e) {
                last = e;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("timed out after " + timeout + " awaiting " + what, last);
    }

    // ---------------------------------------------------------------- logs and shutdown

    /** The last {@code lines} lines of every log and output file, for a failure report. */
    String logTails(int lines) {
        StringBuilder s = new StringBuilder();
        try (Stream<Path> files = Files.list(logs)) {
            for (Path f : files.sorted().toList()) {
                List<String> all = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
                s.append("===== ")
                        .append(f.getFileName())
                        .append(" (last ")
                        .append(Math.min(lines, all.size()))
                        .append(" of ")
                        .append(all.size())
                        .append(" lines)\n");
                all.subList(Math.max(0, all.size() - lines), all.size())
                        .forEach(l -> s.append(l).append('\n'));
            }
        } catch (IOException e) {
            s.append("(logs unreadable: ").append(e).append(")\n");
        }
        return s.toString();
    }

    /** Copies the log and output files into {@code target}, for a post-mortem of a failed run. */
    void copyLogs(Path target) {
        try (Stream<Path> files = Files.list(logs)) {
            Files.createDirectories(target);
            for (Path f : files.toList()) {
                Files.copy(f, target.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("could not copy the logs to " + target + ": " + e);
        }
    }

    /** Stops the processes: SIGTERM, then after 15 s SIGKILL. The working directory stays. */
    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private void killAll() {
        processes.forEach(Process::destroyForcibly);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
