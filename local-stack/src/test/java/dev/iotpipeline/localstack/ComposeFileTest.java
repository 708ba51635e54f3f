package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * docker-compose.yml, the Dockerfile and the monitoring files they mount, checked without a Docker engine: the
 * Compose Specification's schema, what every container must have (healthcheck, memory limit, pinned image,
 * required secrets), the cluster profile's replication, the same limits as {@code ./pipeline run}, and that every
 * input of every image and every mounted file exists once the build has run. {@code verify} runs these after the
 * four services' {@code package}, so their exec jars are there.
 */
class ComposeFileTest {

    private static final Path DOCKERFILE = ComposeModel.ROOT.resolve("Dockerfile");
    private static final Path DOCKERIGNORE = ComposeModel.ROOT.resolve(".dockerignore");

    /** Stand-ins for the secrets compose demands; the real ones come from the operator's environment. */
    private static final Map<String, String> SECRETS = Map.of(
            "IOT_ADMIN_TOKEN", "test-admin-token",
            "IOT_DASHBOARD_TOKEN", "test-dashboard-token",
            "IOT_DEVICE_KEY", "test-device-key",
            "IOT_POSTGRES_PASSWORD", "test-postgres-password",
            "IOT_GRAFANA_ADMIN_PASSWORD", "test-grafana-password");

    /** Credentials by their property's last part: admin-tokens[0], dashboard-tokens[0].token, device-keys[0].key, password. */
    private static final Pattern SECRET_NAME = Pattern.compile(".*(TOKEN|TOKENS_\\d+|PASSWORD|SECRET|_KEY)");

    private static final Pattern REQUIRED_VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+):\\?[^}]+}");
    private static final Pattern PINNED_TAG = Pattern.compile("[^:@/]+(/[^:@/]+)*:v?\\d+\\.\\d+[^:]*");

    /** The services built from this repository and the module each one runs. */
    private static final Map<String, Service> BUILT = Map.of(
            "ingest-service",
            Service.INGEST,
            "decoder-service",
            Service.DECODER,
            "rules-service",
            Service.RULES,
            "notify-service",
            Service.NOTIFY);

    /** How compose runs: one broker by default, and with deploy/cluster.env (which names the cluster profile). */
    private enum Mode {
        SINGLE,
        CLUSTER;

        Map<String, String> environment() {
            var environment = new HashMap<>(SECRETS);
            if (this == CLUSTER) {
                environment.putAll(ComposeModel.readEnvFile(ComposeModel.CLUSTER_ENV));
            }
            return environment;
        }

        Set<String> profiles() {
            var profiles = environment().getOrDefault("COMPOSE_PROFILES", "");
            return profiles.isEmpty() ? Set.of() : Set.of(profiles.split(","));
        }

        Map<String, Object> compose() {
            return ComposeModel.read(ComposeModel.COMPOSE_FILE, environment());
        }

        Map<String, Map<String, Object>> services() {
            return ComposeModel.activeServices(compose(), profiles());
        }
    }

    @Test
    void shouldConformToTheComposeSpecificationInBothModes() throws IOException {
        var schema = composeSpecification();
        for (var mode : Mode.values()) {
            JsonNode document = EventJson.mapper().valueToTree(mode.compose());
            assertThat(schema.validate(document))
                    .as("schema errors with %s", mode)
                    .isEmpty();
        }
    }

    @Test
    void shouldRejectAFileThatBreaksTheSpecification() {
        var schema = composeSpecification();
        var broken = Mode.SINGLE.compose();
        ComposeModel.services(broken)
                .get("postgres")
                .put("healthcheck", Map.of("test", "pg_isready", "intervall", "5s"));
        broken.put("servics", Map.of());

        assertThat(schema.validate(EventJson.mapper().<JsonNode>valueToTree(broken)))
                .extracting(com.networknt.schema.Error::getMessage)
                .anySatisfy(message -> assertThat(message).contains("intervall"))
                .anySatisfy(message -> assertThat(message).contains("servics"));
    }

    /**
     * The vendored schema (see compose-spec.json.md beside it). Its {@code $id} is relative, so it is loaded under
     * the address it was published at; nothing is fetched, every reference in it is internal.
     */
    private static Schema composeSpecification() {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(
                        SchemaLocation.of(
                                "https://raw.githubusercontent.com/compose-spec/compose-go/v2.9.1/schema/compose-spec.json"),
                        ComposeFileTest.class.getResourceAsStream("/compose-spec.json"),
                        InputFormat.JSON);
    }

    @Test
    void shouldGiveEveryContainerAHealthcheckAndAMemoryLimit() {
        ComposeModel.services(Mode.CLUSTER.compose()).forEach((name, service) -> {
            @SuppressWarnings("unchecked")
            var healthcheck = (Map<String, Object>) service.get("healthcheck");
            assertThat(healthcheck).as("healthcheck of %s", name).isNotNull().doesNotContainEntry("disable", true);
            assertThat(healthcheck.get("test"))
                    .as("healthcheck test of %s", name)
                    .isInstanceOf(List.class);
            assertThat(((List<?>) healthcheck.get("test")).getFirst())
                    .as("healthcheck of %s", name)
                    .isNotEqualTo("NONE");
            assertThat(ComposeModel.memoryLimit(service))
                    .as("memory limit of %s", name)
                    .isNotBlank();
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldStartEveryContainerOnlyAfterItsDependenciesAreHealthy() {
        for (var mode : Mode.values()) {
            var all = ComposeModel.services(mode.compose());
            var active = mode.services();
            active.forEach((name, service) -> {
                var dependsOn = service.getOrDefault("depends_on", Map.of());
                // The list form means service_started: a dependency that is running but not yet serving.
                assertThat(dependsOn).as("depends_on of %s", name).isInstanceOf(Map.class);
                ((Map<String, Map<String, Object>>) dependsOn).forEach((dependency, condition) -> {
                    assertThat(condition)
                            .as("%s -> %s", name, dependency)
                            .containsEntry("condition", "service_healthy");
                    assertThat(all).as("%s -> %s", name, dependency).containsKey(dependency);
                    // Only a broker of the cluster profile may be absent; compose rejects any other missing one.
                    assertThat(active.containsKey(dependency) || Boolean.FALSE.equals(condition.get("required")))
                            .as("%s depends on %s, which does not run with %s", name, dependency, mode)
                            .isTrue();
                });
            });
        }
    }

    @Test
    void shouldPinEveryImageToAReleasedVersion() {
        var images = new ArrayList<String>();
        ComposeModel.services(Mode.CLUSTER.compose()).forEach((name, service) -> {
            assertThat(service.get("image") != null || service.get("build") != null)
                    .as("%s has an image or a build", name)
                    .isTrue();
            if (service.get("image") != null) {
                images.add(String.valueOf(service.get("image")));
            }
        });
        images.addAll(DockerBuild.read(DOCKERFILE).baseImages());

        assertThat(images)
                .isNotEmpty()
                .allSatisfy(image -> assertThat(image)
                        .as("image %s has a version tag (major.minor at least), never latest", image)
                        .matches(PINNED_TAG)
                        .doesNotContain(":latest"));
    }

    @Test
    void shouldRefuseToStartUntilEverySecretIsSet() {
        var raw = ComposeModel.readYaml(ComposeModel.COMPOSE_FILE);
        var required = new TreeSet<String>();
        ComposeModel.services(raw)
                .forEach((name, service) -> ComposeModel.environment(service).forEach((key, value) -> {
                    if (SECRET_NAME.matcher(key).matches()) {
                        var m = REQUIRED_VARIABLE.matcher(String.valueOf(value));
                        assertThat(m.matches())
                                .as("%s of %s is ${VAR:?message}, with no default: %s", key, name, value)
                                .isTrue();
                        required.add(m.group(1));
                    }
                }));
        assertThat(required).containsExactlyInAnyOrderElementsOf(SECRETS.keySet());
        // No default for a secret anywhere, not even in an extension field.
        var text = read(ComposeModel.COMPOSE_FILE);
        for (var secret : SECRETS.keySet()) {
            assertThat(text)
                    .doesNotContain("${" + secret + ":-")
                    .doesNotContain("${" + secret + "-")
                    .doesNotContain("${" + secret + "}");
            var withoutIt = new HashMap<>(SECRETS);
            withoutIt.remove(secret);
            assertThatThrownBy(() -> ComposeModel.read(ComposeModel.COMPOSE_FILE, withoutIt))
                    .isInstanceOfSatisfying(
                            ComposeModel.MissingVariableException.class,
                            e -> assertThat(e.variable).isEqualTo(secret));
        }
    }

    @Test
    void shouldRunOneBrokerWithoutReplicationByDefault() {
        var brokers = brokers(Mode.SINGLE.services());
        assertThat(brokers).containsOnlyKeys("kafka-1");
        var broker = ComposeModel.environment(brokers.get("kafka-1"));
        assertThat(broker)
                .containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka-1:9093")
                .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", "1")
                .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        assertServicesReplicate(Mode.SINGLE, "1", List.of("kafka-1"));
    }

    @Test
    void shouldRunThreeBrokersWithReplicationThreeAndMinInSyncTwoInTheClusterProfile() {
        assertThat(Mode.CLUSTER.profiles()).containsExactly("cluster");
        var brokers = brokers(Mode.CLUSTER.services());
        assertThat(brokers).hasSize(3);
        var voters = new TreeSet<String>();
        var nodeIds = new TreeSet<String>();
        brokers.forEach((name, service) -> {
            var env = ComposeModel.environment(service);
            nodeIds.add(env.get("KAFKA_NODE_ID"));
            voters.add(env.get("KAFKA_NODE_ID") + "@" + name + ":9093");
            assertThat(env)
                    .as(name)
                    .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                    .containsEntry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://" + name + ":9092")
                    .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", "3")
                    .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "2")
                    .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "3")
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "3")
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "2");
        });
        assertThat(nodeIds).hasSize(3);
        // Every node is a voter, and every voter is a node: a quorum of three that survives the loss of one.
        brokers.values()
                .forEach(service -> assertThat(new TreeSet<>(List.of(ComposeModel.environment(service)
                                .get("KAFKA_CONTROLLER_QUORUM_VOTERS")
                                .split(","))))
                        .isEqualTo(voters));
        assertServicesReplicate(Mode.CLUSTER, "3", List.copyOf(brokers.keySet()));
    }

    /** Each service creates its topics (and rules its Streams topics) with the brokers' replication, and knows them all. */
    private static void assertServicesReplicate(Mode mode, String replication, List<String> brokers) {
        var services = mode.services();
        BUILT.forEach((name, module) -> {
            var env = ComposeModel.environment(services.get(name));
            var prefix = module.shortName().toUpperCase() + "_KAFKA_";
            assertThat(env).as("%s with %s", name, mode).containsEntry(prefix + "REPLICATIONFACTOR", replication);
            assertThat(List.of(env.get("SPRING_KAFKA_BOOTSTRAPSERVERS").split(",")))
                    .as("bootstrap servers of %s with %s", name, mode)
                    .containsExactlyInAnyOrderElementsOf(
                            brokers.stream().map(b -> b + ":9092").toList());
        });
        assertThat(ComposeModel.environment(services.get("rules-service")))
                .containsEntry("SPRING_KAFKA_STREAMS_REPLICATIONFACTOR", replication);
    }

    @Test
    void shouldKeepKafkaPostgresAndStreamsStateOnNamedVolumes() {
        var compose = Mode.CLUSTER.compose();
        @SuppressWarnings("unchecked")
        var declared = ((Map<String, Object>) compose.get("volumes")).keySet();
        var services = ComposeModel.services(compose);
        brokers(services)
                .forEach((name, service) -> assertNamedVolumeAt(
                        declared,
                        name,
                        service,
                        ComposeModel.environment(service).get("KAFKA_LOG_DIRS")));
        assertNamedVolumeAt(declared, "postgres", services.get("postgres"), "/var/lib/postgresql");
        var rules = services.get("rules-service");
        assertNamedVolumeAt(
                declared,
                "rules-service",
                rules,
                ComposeModel.environment(rules).get("SPRING_KAFKA_STREAMS_STATEDIR"));
    }

    private static void assertNamedVolumeAt(
            Set<String> declared, String name, Map<String, Object> service, String path) {
        assertThat(path).as("data directory of %s", name).isNotBlank();
        assertThat(ComposeModel.mounts(service)).as("volumes of %s", name).anySatisfy(mount -> {
            assertThat(mount.bind()).isFalse();
            assertThat(mount.target()).isEqualTo(path);
            assertThat(declared).contains(mount.source());
        });
    }

    /**
     * The limits the k6 suites run into are those of {@code ./pipeline run} (LocalStack's service properties): the
     * demo key's rate, WebSocket and HTTP limits, partitions. Compose sets each the same, and none it does not set.
     */
    @Test
    void shouldApplyTheLimitsOfPipelineRun() {
        var limits = Pattern.compile("iot\\.security\\.device-keys\\[0]\\.rate-per-second|ingest\\.rate-limit\\..*"
                + "|ingest\\.limits\\..*|notify\\.websocket\\..*|iot\\.http\\..*|[a-z]+\\.kafka\\.partitions");
        var services = Mode.SINGLE.services();
        var settings = new LocalStack.Settings(
                Path.of("data"),
                LocalStack.Ports.DEFAULT,
                "key",
                "dashboard",
                "admin",
                LocalStack.Settings.DEFAULT_PARTITIONS);
        var infrastructure = new Infrastructure("kafka:9092", "jdbc:postgresql://postgres/iot", "iot", "");
        BUILT.forEach((name, module) -> {
            var expected = new LinkedHashMap<String, String>();
            for (var property : ServiceProperties.of(module, settings, infrastructure, 0, false)) {
                var nameAndValue = property.split("=", 2);
                if (limits.matcher(nameAndValue[0]).matches()
                        && (!nameAndValue[0].startsWith("iot.security.device-keys") || module == Service.INGEST)) {
                    expected.put(relaxed(nameAndValue[0]), nameAndValue[1]);
                }
            }
            var env = ComposeModel.environment(services.get(name));
            assertThat(env).as("limits of %s", name).containsAllEntriesOf(expected);
            var limitVariables = Pattern.compile("IOT_SECURITY_DEVICEKEYS_\\d+_RATEPERSECOND|INGEST_RATELIMIT_.*"
                    + "|INGEST_LIMITS_.*|NOTIFY_WEBSOCKET_.*|IOT_HTTP_.*|[A-Z]+_KAFKA_PARTITIONS");
            assertThat(env.keySet().stream()
                            .filter(k -> limitVariables.matcher(k).matches()))
                    .as("limits %s sets that ./pipeline run does not", name)
                    .allSatisfy(k -> assertThat(expected).containsKey(k));
        });
        assertThat(ComposeModel.environment(services.get("ingest-service")))
                .containsEntry("IOT_SECURITY_DEVICEKEYS_0_RATEPERSECOND", "1000000");
    }

    /** Spring Boot's environment-variable form of a property: iot.security.device-keys[0].key -> IOT_SECURITY_DEVICEKEYS_0_KEY. */
    private static String relaxed(String property) {
        return property.replace("-", "")
                .replaceAll("\\[(\\d+)]", "_$1")
                .replace('.', '_')
                .toUpperCase();
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldBuildEachServiceImageFromItsOwnExecJar() throws IOException {
        var build = DockerBuild.read(DOCKERFILE);
        for (var entry : BUILT.entrySet()) {
            var name = entry.getKey();
            var module = entry.getValue().module();
            var service = Mode.SINGLE.services().get(name);
            var buildSection = (Map<String, Object>) service.get("build");
            assertThat(buildSection)
                    .as("build of %s", name)
                    .containsEntry("context", ".")
                    .containsEntry("target", name);
            var chain = build.chain(name);
            assertThat(chain).as("Dockerfile stage %s", name).isNotEmpty();

            var copies =
                    chain.stream().flatMap(stage -> stage.copies().stream()).toList();
            var jar = copies.stream()
                    .filter(copy -> copy.destination().endsWith(".jar"))
                    .toList();
            assertThat(jar)
                    .as("jar copied into %s", name)
                    .singleElement()
                    .satisfies(copy ->
                            assertThat(copy.sources()).containsExactly(module + "/target/" + module + "-*-exec.jar"));
            for (var copy : copies) {
                for (var source : copy.sources()) {
                    var files = DockerBuild.resolve(ComposeModel.ROOT, source);
                    // Docker copies several matches only into a directory: a second jar (an old version) breaks the
                    // build.
                    assertThat(files)
                            .as("%s for %s exists after the build (./mvnw package), exactly once", source, name)
                            .hasSize(1);
                    assertThat(DockerBuild.ignored(
                                    DOCKERIGNORE,
                                    ComposeModel.ROOT
                                            .relativize(files.getFirst())
                                            .toString()))
                            .as(".dockerignore keeps %s out of the build context", files.getFirst())
                            .isFalse();
                }
            }
            var execJar = DockerBuild.resolve(
                            ComposeModel.ROOT, jar.getFirst().sources().getFirst())
                    .getFirst();
            try (var jarFile = new JarFile(execJar.toFile())) {
                assertThat(jarFile.getManifest().getMainAttributes().getValue("Start-Class"))
                        .as("%s is Spring Boot's executable jar", execJar)
                        .startsWith("dev.iotpipeline.");
            }

            // Runs as a user of its own, answers its healthcheck with a script that is in the image, on its port.
            var user = chain.stream()
                    .map(DockerBuild.Stage::user)
                    .filter(u -> u != null)
                    .findFirst()
                    .orElse("root");
            assertThat(user).as("user of %s", name).isNotIn("root", "0");
            assertThat(chain.stream()
                            .map(DockerBuild.Stage::entrypoint)
                            .filter(e -> e != null)
                            .findFirst())
                    .as("entrypoint of %s", name)
                    .hasValueSatisfying(e -> assertThat(e).contains("-jar"));
            var port = ComposeModel.containerPorts(service).getFirst();
            assertThat(chain.getFirst().exposed()).as("EXPOSE of %s", name).containsExactly(port);
            var test = (List<String>) ((Map<String, Object>) service.get("healthcheck")).get("test");
            assertThat(test).as("healthcheck of %s", name).containsExactly("CMD", test.get(1), String.valueOf(port));
            assertThat(copies)
                    .as("%s is copied into the image of %s", test.get(1), name)
                    .anySatisfy(copy -> assertThat(copy.destination()).isEqualTo(test.get(1)));
            assertThat(chain.getFirst().healthcheck())
                    .as("image healthcheck of %s", name)
                    .isEqualTo(test.subList(1, 3));
        }
        assertThat(Files.isExecutable(ComposeModel.ROOT.resolve("deploy/docker/healthcheck.sh")))
                .isTrue();
    }

    @Test
    void shouldLeaveEverythingButTheImageInputsOutOfTheBuildContext() {
        assertThat(DockerBuild.ignored(DOCKERIGNORE, "data/kafka/meta.properties"))
                .isTrue();
        assertThat(DockerBuild.ignored(DOCKERIGNORE, "ingest-service/src/main/java/Foo.java"))
                .isTrue();
        assertThat(DockerBuild.ignored(DOCKERIGNORE, "ingest-service/target/ingest-service-0.1.0-SNAPSHOT.jar"))
                .isTrue();
        assertThat(DockerBuild.ignored(DOCKERIGNORE, "ingest-service/target/ingest-service-0.1.0-SNAPSHOT-exec.jar"))
                .isFalse();
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldMountMonitoringConfigurationThatExistsAndScrapesEveryService() {
        var services = Mode.SINGLE.services();
        services.forEach((name, service) -> ComposeModel.mounts(service).stream()
                .filter(ComposeModel.Mount::bind)
                .forEach(mount -> assertThat(
                                ComposeModel.ROOT.resolve(mount.source()).normalize())
                        .as("%s mounted into %s", mount.source(), name)
                        .exists()));

        // Prometheus scrapes every replica of every service, on its port, at /actuator/prometheus.
        var prometheus = services.get("prometheus");
        var prometheusYml = hostPath(prometheus, "/etc/prometheus/prometheus.yml");
        var jobs =
                (List<Map<String, Object>>) ComposeModel.readYaml(prometheusYml).get("scrape_configs");
        BUILT.keySet()
                .forEach(name -> assertThat(jobs).as("scrape job for %s", name).anySatisfy(job -> {
                    assertThat(job).containsEntry("metrics_path", "/actuator/prometheus");
                    var discovery = ((List<Map<String, Object>>) job.get("dns_sd_configs")).getFirst();
                    assertThat((List<String>) discovery.get("names")).containsExactly(name);
                    assertThat(discovery.get("port"))
                            .isEqualTo(ComposeModel.containerPorts(services.get(name))
                                    .getFirst());
                }));

        // Grafana: the datasource is the prometheus service; the dashboards folder is the one provisioning reads,
        // and every panel names the datasource by its provisioned uid.
        var grafana = services.get("grafana");
        var provisioning = hostPath(grafana, "/etc/grafana/provisioning");
        var uids = new LinkedHashSet<String>();
        for (var file : yamlFiles(provisioning.resolve("datasources"))) {
            for (var datasource :
                    (List<Map<String, Object>>) ComposeModel.readYaml(file).get("datasources")) {
                assertThat(datasource.get("url"))
                        .isEqualTo("http://prometheus:"
                                + ComposeModel.containerPorts(prometheus).getFirst());
                uids.add(String.valueOf(datasource.get("uid")));
            }
        }
        assertThat(uids).isNotEmpty();
        var dashboards = new ArrayList<Path>();
        for (var file : yamlFiles(provisioning.resolve("dashboards"))) {
            for (var provider :
                    (List<Map<String, Object>>) ComposeModel.readYaml(file).get("providers")) {
                var folder =
                        hostPath(grafana, String.valueOf(((Map<String, Object>) provider.get("options")).get("path")));
                try (Stream<Path> files = Files.list(folder)) {
                    dashboards.addAll(
                            files.filter(f -> f.toString().endsWith(".json")).toList());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        assertThat(dashboards).isNotEmpty();
        for (var dashboard : dashboards) {
            var json = PipelineClient.json(read(dashboard));
            assertThat(json.findValues("datasource"))
                    .as("datasources of %s", dashboard)
                    .isNotEmpty()
                    .allSatisfy(datasource ->
                            assertThat(uids).contains(datasource.get("uid").asString()));
        }
        var home = ComposeModel.environment(grafana).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        assertThat(hostPath(grafana, home)).exists();
    }

    /** Where a path inside the container comes from on this machine, through the service's bind mounts. */
    private static Path hostPath(Map<String, Object> service, String containerPath) {
        for (var mount : ComposeModel.mounts(service)) {
            if (mount.bind()
                    && (containerPath.equals(mount.target()) || containerPath.startsWith(mount.target() + "/"))) {
                return ComposeModel.ROOT
                        .resolve(mount.source())
                        .resolve(
                                containerPath.substring(mount.target().length()).replaceFirst("^/", ""))
                        .normalize();
            }
        }
        throw new AssertionError(containerPath + " is not mounted from this checkout");
    }

    private static List<Path> yamlFiles(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(
                            f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The real Compose, when this machine has it: it loads the file in both modes (merge keys, interpolation,
     * profiles, depends_on of disabled services) and exits 0. Compose v2.20 or later is needed for
     * {@code depends_on.required}; Debian's docker-compose 1.29 cannot read the file, so it is skipped.
     */
    @Test
    void shouldBeAcceptedByDockerComposeWhenItIsInstalled() throws Exception {
        var command = composeCommand();
        assumeThat(command)
                .as("docker compose v2.20+ (docker-compose on PATH, or the docker compose plugin)")
                .isNotNull();
        for (var mode : Mode.values()) {
            var arguments = new ArrayList<>(command);
            arguments.addAll(List.of(
                    "--project-directory", ComposeModel.ROOT.toString(), "-f", ComposeModel.COMPOSE_FILE.toString()));
            if (mode == Mode.CLUSTER) {
                arguments.addAll(List.of("--env-file", ComposeModel.CLUSTER_ENV.toString()));
            }
            arguments.addAll(List.of("config", "-q"));
            var process = new ProcessBuilder(arguments).redirectErrorStream(true);
            process.environment().putAll(SECRETS);
            process.environment().remove("COMPOSE_PROFILES");
            var result = run(process);
            assertThat(result.exitCode())
                    .as("%s with %s:%n%s", String.join(" ", arguments), mode, result.output())
                    .isZero();
        }
    }

    private static List<String> composeCommand() throws Exception {
        var path = System.getenv().getOrDefault("PATH", "");
        for (var candidate : List.of(List.of("docker-compose"), List.of("docker", "compose"))) {
            boolean onPath = Arrays.stream(path.split(":"))
                    .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, candidate.getFirst())));
            if (!onPath) {
                continue;
            }
            var version = new ArrayList<>(candidate);
            version.addAll(List.of("version", "--short"));
            var result = run(new ProcessBuilder(version).redirectErrorStream(true));
            var m = Pattern.compile("v?(\\d+)\\.(\\d+)").matcher(result.output());
            if (result.exitCode() == 0
                    && m.find()
                    && (Integer.parseInt(m.group(1)) > 2
                            || Integer.parseInt(m.group(1)) == 2 && Integer.parseInt(m.group(2)) >= 20)) {
                return candidate;
            }
        }
        return null;
    }

    private record Result(int exitCode, String output) {}

    private static Result run(ProcessBuilder builder) throws Exception {
        var process = builder.start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, output + "\n(timed out)");
        }
        return new Result(process.exitValue(), output);
    }

    private static Map<String, Map<String, Object>> brokers(Map<String, Map<String, Object>> services) {
        var brokers = new LinkedHashMap<String, Map<String, Object>>();
        services.forEach((name, service) -> {
            if (String.valueOf(service.get("image")).startsWith("apache/kafka:")) {
                brokers.put(name, service);
            }
        });
        return brokers;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
