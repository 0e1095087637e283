package org.quadfence.deploy;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.metrics.prometheus.PrometheusReporterFactory;
import org.apache.flink.runtime.metrics.MetricNames;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quadfence.job.PrometheusMetrics;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.GrafanaDashboard;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deployment files (docker/, docker/k8s/, jobs/) agree with the code: they parse, their images
 * are pinned to the versions the pom builds against, the jar they run is the one the pom's shade
 * plugin writes, every job option they name exists, and the topics they create are the ones the job
 * reads and writes; Flink's Prometheus reporter runs where Prometheus scrapes it, and the Grafana
 * dashboard queries only metrics that Flink or the job registers; on Kubernetes the job runs with
 * high availability and its state in S3. (There is no Docker engine or Kubernetes here; this is
 * what can be checked without one.)
 */
class DeploymentFilesTest {

    private static final Path COMPOSE = Path.of("docker/docker-compose.yml");
    private static final Path DOCKERFILE = Path.of("docker/Dockerfile");
    private static final Path K8S = Path.of("docker/k8s/flinkdeployment.yaml");
    private static final Path K8S_PVC = Path.of("docker/k8s/flinkdeployment-pvc.yaml");
    private static final Path PROMETHEUS = Path.of("docker/prometheus/prometheus.yml");
    private static final Path GRAFANA_DATASOURCE =
            Path.of("docker/grafana/provisioning/datasources/prometheus.yml");
    private static final Path GRAFANA_DASHBOARDS =
            Path.of("docker/grafana/provisioning/dashboards/quadfence.yml");
    private static final Path JOBS = Path.of("jobs");

    private static Map<String, Object> compose;
    private static Map<String, Object> flinkDeployment;
    private static Map<String, Object> pvcDeployment;
    private static List<String> dockerfile;
    private static Map<String, String> pom;

    @BeforeAll
    static void read() throws Exception {
        compose = map(yaml(COMPOSE).get(0));
        flinkDeployment = document(K8S, "FlinkDeployment");
        pvcDeployment = document(K8S_PVC, "FlinkDeployment");
        dockerfile = Files.readAllLines(DOCKERFILE);
        pom = pom();
    }

    @Test
    void everyYamlFileParses() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(Path.of("docker"))) {
            files =
                    s.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                            .toList();
        }
        assertThat(files)
                .contains(
                        COMPOSE, K8S, K8S_PVC, PROMETHEUS, GRAFANA_DATASOURCE, GRAFANA_DASHBOARDS);
        for (Path f : files) {
            List<Object> docs = yaml(f);
            assertThat(docs)
                    .as("%s", f)
                    .isNotEmpty()
                    .allSatisfy(d -> assertThat(d).isInstanceOf(Map.class));
        }
        assertThat(flinkDeployment.get("apiVersion")).isEqualTo("flink.apache.org/v1beta1");
        assertThat(pvcDeployment.get("apiVersion")).isEqualTo("flink.apache.org/v1beta1");
    }

    @Test
    void imagesArePinnedToThePomsVersions() {
        List<String> images = new ArrayList<>();
        services().values().forEach(s -> images.add((String) map(s).get("image")));
        images.add((String) spec().get("image"));
        images.add((String) map(pvcDeployment.get("spec")).get("image"));
        for (String line : dockerfile) {
            Matcher m = Pattern.compile("^FROM\\s+(\\S+)").matcher(line.trim());
            if (m.find()) {
                images.add(m.group(1));
            }
        }
        assertThat(images).doesNotContainNull().hasSizeGreaterThanOrEqualTo(12);
        for (String image : images) {
            String name = image.substring(image.lastIndexOf('/') + 1);
            assertThat(name).as("image %s has a tag", image).contains(":");
            String tag = name.substring(name.indexOf(':') + 1);
            assertThat(tag).as("image %s", image).isNotEqualTo("latest").containsPattern("[0-9]");
        }
        String release = pom.get("maven.compiler.release");
        assertThat(images)
                .contains("flink:" + pom.get("flink.version") + "-java" + release)
                .contains("apache/kafka:" + pom.get("kafka.version"))
                .anyMatch(i -> i.startsWith("maven:") && i.endsWith("-eclipse-temurin-" + release));
        // The image built here, in compose and on Kubernetes alike.
        String own = "quadfence:" + pom.get("project.version");
        assertThat(spec().get("image")).isEqualTo(own);
        assertThat(map(pvcDeployment.get("spec")).get("image")).isEqualTo(own);
        for (String service : List.of("jobmanager", "taskmanager", "submit", "fleet")) {
            assertThat(service(service).get("image")).as(service).isEqualTo(own);
            assertThat(map(service(service).get("build")).get("dockerfile"))
                    .isEqualTo("docker/Dockerfile");
        }
    }

    @Test
    void theJarThatRunsIsTheShadedJar() {
        String jar = pom.get("jobJar").replace("${project.build.directory}", "target");
        assertThat(jar).isEqualTo("target/quadfence.jar");
        String[] copy = copyFromBuild();
        assertThat(copy[0]).as("the Dockerfile copies the shade output").endsWith("/" + jar);
        String inImage = copy[1];
        assertThat(inImage).isEqualTo("/opt/flink/usrlib/quadfence.jar");
        assertThat(submitCommand()).contains(inImage);
        assertThat(job().get("jarURI")).isEqualTo("local://" + inImage);
        assertThat(map(map(pvcDeployment.get("spec")).get("job")).get("jarURI"))
                .isEqualTo("local://" + inImage);
    }

    @Test
    void everyJobOptionNamedAnywhereExists() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(JOBS)) {
            files = s.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
        }
        assertThat(files).contains(JOBS.resolve("docker.properties"));
        Pattern commentedOut = Pattern.compile("^#\\s*([a-z][a-z0-9.-]*)=");
        for (Path f : files) {
            Set<String> keys = new TreeSet<>(properties(f).stringPropertyNames());
            for (String line : Files.readAllLines(f)) {
                Matcher m = commentedOut.matcher(line);
                if (m.find()) {
                    keys.add(m.group(1));
                }
            }
            assertThat(keys)
                    .as("%s", f)
                    .allMatch(DeploymentFilesTest::isJobOption, "is a job option");
            // The values are valid too.
            JobOptions.fromArgs(new String[] {"--config", f.toString()});
        }
        List<String> composeArgs = jobArgs(submitCommand());
        assertThat(composeArgs).contains("--config");
        JobOptions.fromArgs(composeArgs.toArray(new String[0]));
        for (Map<String, Object> deployment : List.of(flinkDeployment, pvcDeployment)) {
            @SuppressWarnings("unchecked")
            List<String> k8sArgs =
                    (List<String>) map(map(deployment.get("spec")).get("job")).get("args");
            for (int i = 0; i < k8sArgs.size(); i += 2) {
                assertThat(k8sArgs.get(i)).startsWith("--");
                assertThat(isJobOption(k8sArgs.get(i).substring(2))).as(k8sArgs.get(i)).isTrue();
            }
            JobOptions.fromArgs(k8sArgs.toArray(new String[0]));
        }
    }

    @Test
    void theTopicsCreatedAreTheJobsTopics() throws IOException {
        Map<String, String> created = new LinkedHashMap<>();
        Matcher m = Pattern.compile("--topic\\s+(\\S+)(.*)").matcher(command(service("topics")));
        while (m.find()) {
            created.put(m.group(1), m.group(2));
        }
        List<String> topicOptions =
                List.of("positions-topic", "fences-topic", "events-topic", "dlq-topic");
        Set<String> defaults = new HashSet<>();
        topicOptions.forEach(o -> defaults.add(JobOptions.KNOWN.get(o)[0]));
        assertThat(created.keySet()).containsExactlyInAnyOrderElementsOf(defaults);
        JobOptions docker = JobOptions.fromArgs(jobArgs(submitCommand()).toArray(new String[0]));
        for (String o : topicOptions) {
            assertThat(created).containsKey(docker.get(o));
        }
        created.forEach(
                (topic, settings) -> {
                    boolean compacted = settings.contains("cleanup.policy=compact");
                    assertThat(compacted)
                            .as(topic)
                            .isEqualTo(topic.equals(docker.get("fences-topic")));
                });
        // The job's bootstrap servers are the broker's advertised address for containers.
        String advertised =
                (String) map(service("kafka").get("environment")).get("KAFKA_ADVERTISED_LISTENERS");
        assertThat(advertised).contains("PLAINTEXT://" + docker.get("bootstrap-servers"));
        assertThat(map(service("kafka").get("environment")))
                .containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .containsEntry("KAFKA_LOG_RETENTION_MS", -1);
    }

    @Test
    void flinkSettingsAreCurrentFlinkOptions() throws Exception {
        Set<String> current = new HashSet<>();
        Set<String> deprecated = new HashSet<>();
        Set<String> reporterKeys = new HashSet<>();
        // And the Prometheus reporter's own parameter.
        reporterKeys.add(staticString(PrometheusReporterFactory.class, "ARG_PORT"));
        for (String c :
                List.of(
                        "CoreOptions",
                        "JobManagerOptions",
                        "TaskManagerOptions",
                        "RestOptions",
                        "CheckpointingOptions",
                        "StateBackendOptions",
                        "StateRecoveryOptions",
                        "PipelineOptions",
                        "DeploymentOptions",
                        "HighAvailabilityOptions",
                        "BlobServerOptions",
                        "WebOptions",
                        "MetricOptions")) {
            for (Field f : Class.forName("org.apache.flink.configuration." + c).getFields()) {
                if (Modifier.isStatic(f.getModifiers())
                        && ConfigOption.class.isAssignableFrom(f.getType())) {
                    ConfigOption<?> o = (ConfigOption<?>) f.get(null);
                    current.add(o.key());
                    // The options of one reporter: metrics.reporter.<name>.factory.class and so on.
                    if (c.equals("MetricOptions") && !o.key().startsWith("metrics.")) {
                        reporterKeys.add(o.key());
                    }
                    for (FallbackKey k : o.fallbackKeys()) {
                        deprecated.add(k.getKey());
                    }
                }
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        for (String service : List.of("jobmanager", "taskmanager", "submit")) {
            String properties =
                    (String) map(service(service).get("environment")).get("FLINK_PROPERTIES");
            for (String line : properties.split("\n")) {
                if (!line.isBlank()) {
                    settings.put(line.substring(0, line.indexOf(':')).trim(), service);
                }
            }
        }
        map(spec().get("flinkConfiguration")).keySet().forEach(k -> settings.put(k, K8S));
        map(map(pvcDeployment.get("spec")).get("flinkConfiguration"))
                .keySet()
                .forEach(k -> settings.put(k, K8S_PVC));
        assertThat(settings).isNotEmpty();
        Pattern reporter = Pattern.compile("metrics\\.reporter\\.[A-Za-z0-9_-]+\\.(.+)");
        settings.forEach(
                (key, where) -> {
                    Matcher m = reporter.matcher(key);
                    if (m.matches()) {
                        assertThat(reporterKeys)
                                .as("%s (%s) is an option of a metrics reporter", key, where)
                                .contains(m.group(1));
                    } else {
                        assertThat(current)
                                .as(
                                        "%s (%s) is a current Flink option%s",
                                        key,
                                        where,
                                        deprecated.contains(key) ? "; it is deprecated" : "")
                                .contains(key);
                    }
                });
    }

    @Test
    void flinksPrometheusReporterRunsOnJobManagerAndTaskManagerWherePrometheusScrapesIt()
            throws IOException {
        Map<String, String> flink = flinkProperties("jobmanager");
        assertThat(flinkProperties("taskmanager")).isEqualTo(flink);
        assertThat(flink)
                .containsEntry(
                        "metrics.reporter.prom.factory.class",
                        PrometheusReporterFactory.class.getName());
        String port = flink.get("metrics.reporter.prom.port");
        assertThat(port).isEqualTo(Integer.toString(PrometheusMetrics.DEFAULT_PORT));
        for (String service : List.of("jobmanager", "taskmanager")) {
            assertThat(strings(service(service).get("expose"))).as(service).contains(port);
            assertThat(strings(service(service).getOrDefault("ports", List.of())))
                    .as("%s does not publish the reporter on the host", service)
                    .noneMatch(p -> p.contains(port));
        }

        Map<String, Object> prometheus = map(yaml(PROMETHEUS).get(0));
        Map<String, Map<String, Object>> jobs = new LinkedHashMap<>();
        for (Object job : (List<?>) prometheus.get("scrape_configs")) {
            jobs.put((String) map(job).get("job_name"), map(job));
        }
        assertThat(jobs).containsOnlyKeys("flink-jobmanager", "flink-taskmanager");
        Object targets = map(first(jobs.get("flink-jobmanager").get("static_configs")));
        assertThat(strings(map(targets).get("targets"))).containsExactly("jobmanager:" + port);
        // Every TaskManager of a scaled-up compose project, found by the service's name.
        Map<String, Object> dns = map(first(jobs.get("flink-taskmanager").get("dns_sd_configs")));
        assertThat(strings(dns.get("names"))).containsExactly("taskmanager");
        assertThat(dns).containsEntry("type", "A").containsEntry("port", Integer.valueOf(port));

        assertThat(service("prometheus").get("image")).asString().startsWith("prom/prometheus:v3.");
        assertThat(strings(service("prometheus").get("volumes")))
                .contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
        assertThat(COMPOSE.resolveSibling("prometheus/prometheus.yml")).isEqualTo(PROMETHEUS);
    }

    @Test
    void grafanaProvisionsThePrometheusDataSourceAndTheDashboard() throws IOException {
        Map<String, Object> grafana = service("grafana");
        assertThat(grafana.get("image")).asString().startsWith("grafana/grafana:12.");
        Map<String, String> mounts = new LinkedHashMap<>();
        for (String volume : strings(grafana.get("volumes"))) {
            String[] parts = volume.split(":");
            mounts.put(parts[1], parts[0]);
        }
        assertThat(COMPOSE.resolveSibling(mounts.get("/etc/grafana/provisioning")).normalize())
                .isEqualTo(GRAFANA_DATASOURCE.getParent().getParent());

        Map<String, Object> source =
                map(first(map(yaml(GRAFANA_DATASOURCE).get(0)).get("datasources")));
        assertThat(source)
                .containsEntry("type", "prometheus")
                .containsEntry("url", "http://prometheus:9090");
        assertThat(services()).containsKey("prometheus");

        Map<String, Object> provider =
                map(first(map(yaml(GRAFANA_DASHBOARDS).get(0)).get("providers")));
        String dashboards = (String) map(provider.get("options")).get("path");
        assertThat(COMPOSE.resolveSibling(mounts.get(dashboards)).normalize())
                .isEqualTo(GrafanaDashboard.FILE.getParent());
        assertThat(map(grafana.get("environment")))
                .containsEntry(
                        "GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH",
                        dashboards + "/" + GrafanaDashboard.FILE.getFileName());

        // Every panel reads the provisioned data source, and has queries.
        JsonNode dashboard = GrafanaDashboard.read();
        assertThat(dashboard.path("panels")).hasSizeGreaterThanOrEqualTo(8);
        for (JsonNode panel : dashboard.path("panels")) {
            String title = panel.path("title").asText();
            assertThat(panel.path("datasource").path("uid").asText())
                    .as(title)
                    .isEqualTo(source.get("uid"));
            assertThat(panel.path("targets")).as(title).isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asText()).as(title).isNotBlank();
            }
        }
    }

    @Test
    void everyMetricTheDashboardQueriesIsFlinksOrTheJobsOwn() throws Exception {
        Set<String> own = ownMetrics();
        assertThat(own)
                .as("the job's metrics in src/main")
                .contains("positionsIn", "enterEvents", "deadLetters", "latePositions");
        Set<String> flink = flinkMetrics();
        Set<String> queried = GrafanaDashboard.metrics();
        for (String metric : queried) {
            String operatorMetric = metric.replaceFirst("^" + OPERATOR_SCOPE, "");
            assertThat(flink.contains(metric) || own.contains(operatorMetric))
                    .as("%s is a Flink metric listed here or one of the job's: %s", metric, own)
                    .isTrue();
        }
        // What the dashboard is for: the job's own numbers and Flink's health.
        for (String name :
                List.of(
                        "positionsIn",
                        "enterEvents",
                        "exitEvents",
                        "dwellEvents",
                        "deadLetters",
                        "latePositions",
                        "candidates")) {
            assertThat(queried).contains(OPERATOR_SCOPE + name);
        }
        assertThat(queried).containsAll(flink);
    }

    @Test
    void kubernetesRunsWithHighAvailabilityAndItsStateInS3WithCredentialsFromTheSecret()
            throws IOException {
        Map<String, Object> conf = map(spec().get("flinkConfiguration"));
        assertThat(conf).containsEntry("high-availability.type", "kubernetes");
        List<String> paths = new ArrayList<>();
        for (String key :
                List.of(
                        "high-availability.storageDir",
                        "execution.checkpointing.dir",
                        "execution.checkpointing.savepoint-dir")) {
            String path = (String) conf.get(key);
            assertThat(path).as(key).startsWith("s3://");
            paths.add(path);
        }
        assertThat(paths.stream().map(p -> URI.create(p).getHost()).distinct())
                .as("one bucket")
                .hasSize(1);
        assertThat(paths).doesNotHaveDuplicates();
        assertKeptAndResumed(flinkDeployment);

        // Flink's S3 plugin of this Flink version, from the image's opt/.
        Map<String, Object> container = mainContainer(flinkDeployment);
        Map<String, Object> env = new LinkedHashMap<>();
        for (Object e : (List<?>) container.get("env")) {
            env.put((String) map(e).get("name"), map(e));
        }
        assertThat(map(env.get("ENABLE_BUILT_IN_PLUGINS")))
                .containsEntry("value", "flink-s3-fs-hadoop-" + pom.get("flink.version") + ".jar");
        // The credentials: from the Secret in the same file, never written in the deployment.
        Map<String, Object> secret = document(K8S, "Secret");
        String secretName = (String) map(secret.get("metadata")).get("name");
        Map<String, Object> secretData = map(secret.get("stringData"));
        for (String variable : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")) {
            Map<String, Object> ref =
                    map(map(map(env.get(variable)).get("valueFrom")).get("secretKeyRef"));
            assertThat(ref).as(variable).containsEntry("name", secretName);
            assertThat(secretData).as(variable).containsKey((String) ref.get("key"));
        }
        assertThat(Files.readString(K8S)).doesNotContain("s3.access-key", "s3.secret-key");
    }

    @Test
    void thePvcVariantKeepsHighAvailabilityAndTheStateOnItsVolume() {
        Map<String, Object> conf = map(map(pvcDeployment.get("spec")).get("flinkConfiguration"));
        assertThat(conf).containsEntry("high-availability.type", "kubernetes");
        Map<String, Object> mount = map(first(mainContainer(pvcDeployment).get("volumeMounts")));
        String volume = "file://" + mount.get("mountPath") + "/";
        for (String key :
                List.of(
                        "high-availability.storageDir",
                        "execution.checkpointing.dir",
                        "execution.checkpointing.savepoint-dir")) {
            assertThat((String) conf.get(key)).as(key).startsWith(volume);
        }
        assertKeptAndResumed(pvcDeployment);
    }

    @Test
    void bothManifestsExposeTheReporterPortToPrometheus() {
        for (Map<String, Object> deployment : List.of(flinkDeployment, pvcDeployment)) {
            Map<String, Object> spec = map(deployment.get("spec"));
            Map<String, Object> conf = map(spec.get("flinkConfiguration"));
            assertThat(conf)
                    .containsEntry(
                            "metrics.reporter.prom.factory.class",
                            PrometheusReporterFactory.class.getName());
            String port = (String) conf.get("metrics.reporter.prom.port");
            Map<String, Object> annotations =
                    map(map(map(spec.get("podTemplate")).get("metadata")).get("annotations"));
            assertThat(annotations)
                    .containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port", port)
                    .containsEntry("prometheus.io/path", "/metrics");
            Map<String, Object> containerPort = map(first(mainContainer(deployment).get("ports")));
            assertThat(containerPort)
                    .containsEntry("name", "metrics")
                    .containsEntry("containerPort", Integer.valueOf(port));
        }
    }

    @Test
    void theFleetRunsFromTheJobJarAgainstTheJobsBrokerAndTopics() throws Exception {
        Map<String, Object> fleet = service("fleet");
        List<String> entrypoint = strings(fleet.get("entrypoint"));
        assertThat(entrypoint).hasSize(4).startsWith("java", "-cp");
        // The job jar, and Flink's lib/ for a logging library.
        assertThat(entrypoint.get(2).split(":"))
                .containsExactly(copyFromBuild()[1], "/opt/flink/lib/*");
        assertThat(Class.forName(entrypoint.get(3)).getMethod("main", String[].class)).isNotNull();
        assertThat(map(fleet.get("depends_on"))).containsKey("topics");

        List<String> args = strings(fleet.get("command"));
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            given.put(args.get(i), args.get(i + 1));
        }
        JobOptions docker = JobOptions.fromArgs(jobArgs(submitCommand()).toArray(new String[0]));
        assertThat(given)
                .containsEntry("--bootstrap-servers", docker.get("bootstrap-servers"))
                .containsEntry("--positions-topic", docker.get("positions-topic"))
                .containsEntry("--fences-topic", docker.get("fences-topic"))
                .containsEntry("--tile-level", docker.get("tile-level"));
    }

    // ------------------------------------------------------------------ helpers

    /** The scope Flink's Prometheus reporter gives the metrics of an operator. */
    private static final String OPERATOR_SCOPE = "flink_taskmanager_job_task_operator_";

    /**
     * The Flink metrics the dashboard may query, under their Prometheus names, from Flink's own
     * name constants.
     */
    private static Set<String> flinkMetrics() throws Exception {
        Class<?> checkpoints =
                Class.forName("org.apache.flink.runtime.checkpoint.DefaultCheckpointStatsTracker");
        return Set.of(
                OPERATOR_SCOPE + MetricNames.WATERMARK_LAG,
                OPERATOR_SCOPE + MetricNames.IO_CURRENT_INPUT_WATERMARK,
                "flink_taskmanager_job_task_" + MetricNames.TASK_BUSY_TIME,
                "flink_taskmanager_job_task_" + MetricNames.TASK_BACK_PRESSURED_TIME,
                "flink_jobmanager_job_"
                        + staticString(checkpoints, "LATEST_COMPLETED_CHECKPOINT_DURATION_METRIC"),
                "flink_jobmanager_job_"
                        + staticString(checkpoints, "LATEST_COMPLETED_CHECKPOINT_SIZE_METRIC"),
                "flink_jobmanager_job_"
                        + staticString(
                                checkpoints, "LATEST_COMPLETED_CHECKPOINT_FULL_SIZE_METRIC"));
    }

    /**
     * The names of the metrics that the job registers (counter, gauge, meter or histogram with a
     * name in quotes), found in src/main; all of them on operators.
     */
    private static Set<String> ownMetrics() throws IOException {
        Pattern registered =
                Pattern.compile("\\.(?:counter|gauge|meter|histogram)\\(\\s*\"([A-Za-z0-9_]+)\"");
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = registered.matcher(Files.readString(f));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    /** The value of a static String constant, however visible. */
    private static String staticString(Class<?> c, String field) {
        try {
            Field f = c.getDeclaredField(field);
            f.setAccessible(true);
            return (String) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(c.getName() + "." + field, e);
        }
    }

    /** Checkpoints outlive a cancelled job, and an upgrade resumes from the latest one. */
    private static void assertKeptAndResumed(Map<String, Object> deployment) {
        Map<String, Object> spec = map(deployment.get("spec"));
        assertThat(map(spec.get("flinkConfiguration")))
                .containsEntry(
                        "execution.checkpointing.externalized-checkpoint-retention",
                        "RETAIN_ON_CANCELLATION");
        assertThat(map(spec.get("job"))).containsEntry("upgradeMode", "last-state");
    }

    private static Map<String, Object> mainContainer(Map<String, Object> deployment) {
        Map<String, Object> pod =
                map(map(map(deployment.get("spec")).get("podTemplate")).get("spec"));
        for (Object c : (List<?>) pod.get("containers")) {
            if ("flink-main-container".equals(map(c).get("name"))) {
                return map(c);
            }
        }
        throw new AssertionError("no flink-main-container in the pod template");
    }

    /** A service's FLINK_PROPERTIES as keys and values. */
    private static Map<String, String> flinkProperties(String service) {
        String properties =
                (String) map(service(service).get("environment")).get("FLINK_PROPERTIES");
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : properties.split("\n")) {
            if (!line.isBlank()) {
                int colon = line.indexOf(':');
                m.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        return m;
    }

    /** The first document of {@code file} of that kind. */
    private static Map<String, Object> document(Path file, String kind) throws IOException {
        return yaml(file).stream()
                .map(DeploymentFilesTest::map)
                .filter(d -> kind.equals(d.get("kind")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + file));
    }

    private static Object first(Object list) {
        assertThat(list).isInstanceOf(List.class);
        assertThat((List<?>) list).isNotEmpty();
        return ((List<?>) list).get(0);
    }

    private static List<String> strings(Object list) {
        assertThat(list).isInstanceOf(List.class);
        return ((List<?>) list).stream().map(String::valueOf).toList();
    }

    private static boolean isJobOption(String key) {
        return JobOptions.KNOWN.containsKey(key) || key.startsWith("kafka.");
    }

    private static List<Object> yaml(Path file) throws IOException {
        List<Object> docs = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(in).forEach(docs::add);
        }
        return docs;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    private static Map<String, Object> services() {
        return map(compose.get("services"));
    }

    private static Map<String, Object> service(String name) {
        return map(services().get(name));
    }

    private static Map<String, Object> spec() {
        return map(flinkDeployment.get("spec"));
    }

    private static Map<String, Object> job() {
        return map(spec().get("job"));
    }

    /** A service's command as one string (a list is joined with spaces). */
    private static String command(Map<String, Object> service) {
        Object c = service.get("command");
        return c instanceof List<?> l
                ? String.join(" ", l.stream().map(String::valueOf).toList())
                : (String) c;
    }

    private static String submitCommand() {
        String c = command(service("submit"));
        return Arrays.stream(c.split("\n"))
                .filter(l -> l.contains("flink run"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no `flink run` in the submit service"));
    }

    /**
     * The job's arguments in a {@code flink run ... JAR args} line, with the image's jobs/ files
     * mapped back to the repository's (the Dockerfile copies jobs/ there).
     */
    private static List<String> jobArgs(String flinkRun) {
        List<String> words = Arrays.asList(flinkRun.trim().split("\\s+"));
        int jar = 0;
        while (!words.get(jar).endsWith(".jar")) {
            jar++;
        }
        String inImage = copyDestination("jobs/");
        List<String> args = new ArrayList<>();
        for (String w : words.subList(jar + 1, words.size())) {
            args.add(w.startsWith(inImage) ? "jobs/" + w.substring(inImage.length()) : w);
        }
        return args;
    }

    /** SOURCE and DESTINATION of the Dockerfile's COPY --from=build. */
    private static String[] copyFromBuild() {
        for (String line : dockerfile) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 4 && w[0].equals("COPY") && w[1].equals("--from=build")) {
                return new String[] {w[2], w[3]};
            }
        }
        throw new AssertionError("no COPY --from=build in " + DOCKERFILE);
    }

    private static String copyDestination(String source) {
        for (String line : dockerfile) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 3 && w[0].equals("COPY") && w[1].equals(source)) {
                return w[2];
            }
        }
        throw new AssertionError("no COPY " + source + " in " + DOCKERFILE);
    }

    private static Properties properties(Path f) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(f)) {
            p.load(in);
        }
        return p;
    }

    /** The pom's properties, its version and where the shade plugin writes the job jar. */
    private static Map<String, String> pom() throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse("pom.xml");
        var xpath = XPathFactory.newInstance().newXPath();
        Map<String, String> m = new LinkedHashMap<>();
        for (String p : List.of("flink.version", "kafka.version", "maven.compiler.release")) {
            m.put(p, xpath.evaluate("/project/properties/" + p, doc));
        }
        m.put("project.version", xpath.evaluate("/project/version", doc));
        m.put(
                "jobJar",
                xpath.evaluate(
                        "//plugin[artifactId='maven-shade-plugin']//configuration/outputFile",
                        doc));
        m.values().forEach(v -> assertThat(v).isNotBlank());
        return m;
    }
}
