package org.quadfence.deploy;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quadfence.job.JobOptions;
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
 * reads and writes. (There is no Docker engine or Kubernetes here; this is what can be checked
 * without one.)
 */
class DeploymentFilesTest {

    private static final Path COMPOSE = Path.of("docker/docker-compose.yml");
    private static final Path DOCKERFILE = Path.of("docker/Dockerfile");
    private static final Path K8S = Path.of("docker/k8s/flinkdeployment.yaml");
    private static final Path JOBS = Path.of("jobs");

    private static Map<String, Object> compose;
    private static Map<String, Object> flinkDeployment;
    private static List<String> dockerfile;
    private static Map<String, String> pom;

    @BeforeAll
    static void read() throws Exception {
        compose = map(yaml(COMPOSE).get(0));
        flinkDeployment =
                yaml(K8S).stream()
                        .map(DeploymentFilesTest::map)
                        .filter(d -> "FlinkDeployment".equals(d.get("kind")))
                        .findFirst()
                        .orElseThrow();
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
        assertThat(files).contains(COMPOSE, K8S);
        for (Path f : files) {
            List<Object> docs = yaml(f);
            assertThat(docs)
                    .as("%s", f)
                    .isNotEmpty()
                    .allSatisfy(d -> assertThat(d).isInstanceOf(Map.class));
        }
        assertThat(flinkDeployment.get("apiVersion")).isEqualTo("flink.apache.org/v1beta1");
    }

    @Test
    void imagesArePinnedToThePomsVersions() {
        List<String> images = new ArrayList<>();
        services().values().forEach(s -> images.add((String) map(s).get("image")));
        images.add((String) spec().get("image"));
        for (String line : dockerfile) {
            Matcher m = Pattern.compile("^FROM\\s+(\\S+)").matcher(line.trim());
            if (m.find()) {
                images.add(m.group(1));
            }
        }
        assertThat(images).doesNotContainNull().hasSizeGreaterThanOrEqualTo(8);
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
        for (String service : List.of("jobmanager", "taskmanager", "submit")) {
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
        @SuppressWarnings("unchecked")
        List<String> k8sArgs = (List<String>) job().get("args");
        for (int i = 0; i < k8sArgs.size(); i += 2) {
            assertThat(k8sArgs.get(i)).startsWith("--");
            assertThat(isJobOption(k8sArgs.get(i).substring(2))).as(k8sArgs.get(i)).isTrue();
        }
        JobOptions.fromArgs(k8sArgs.toArray(new String[0]));
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
                        "WebOptions")) {
            for (Field f : Class.forName("org.apache.flink.configuration." + c).getFields()) {
                if (Modifier.isStatic(f.getModifiers())
                        && ConfigOption.class.isAssignableFrom(f.getType())) {
                    ConfigOption<?> o = (ConfigOption<?>) f.get(null);
                    current.add(o.key());
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
        assertThat(settings).isNotEmpty();
        settings.forEach(
                (key, where) ->
                        assertThat(current)
                                .as(
                                        "%s (%s) is a current Flink option%s",
                                        key,
                                        where,
                                        deprecated.contains(key) ? "; it is deprecated" : "")
                                .contains(key));
    }

    // ------------------------------------------------------------------ helpers

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
