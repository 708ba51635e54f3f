package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees when starting the pipeline: {@code ./pipeline run} itself, on a fresh data directory and
 * ports of its own, its console read up to the banner.
 */
class RunConsoleIT {

    /**
     * Measured at 18 lines on a fresh data directory (the services' own INFO lines, the schema migration, Kafka
     * Streams' warning about a state directory under /tmp); with headroom for a few more. It was 267 before
     * local-stack's logback.xml, and over 3,000 while every Kafka client logged its configuration at INFO.
     */
    private static final int MAX_LINES_BEFORE_BANNER = 40;

    @TempDir
    Path data;

    @Test
    void runPrintsItsBannerAfterAFewLinesAndNoKafkaClientConfiguration() throws Exception {
        var console = data.resolve("console.txt");
        var ports = PipelineRun.freePorts();
        int notifyPort = ports.get("NOTIFY");
        var builder = PipelineRun.command(data, ports, console);
        // ./pipeline run execs the stack's JVM, so this is the process a Ctrl-C or kill -TERM reaches.
        var run = builder.start();
        List<ProcessHandle> children = List.of();
        try {
            await().atMost(Duration.ofMinutes(4))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        assertThat(run.isAlive())
                                .as("./pipeline run exited:%n%s", read(console))
                                .isTrue();
                        return read(console).lines().anyMatch("READY"::equals);
                    });
            children = run.descendants().toList();

            var lines = read(console).lines().toList();
            var banner = lines.indexOf(lines.stream()
                    .filter(l -> l.startsWith("iot-pipeline is running"))
                    .findFirst()
                    .orElseThrow());
            var beforeBanner = String.join("\n", lines.subList(0, banner));
            assertThat(banner).as("lines before the banner:%n%s", beforeBanner).isLessThan(MAX_LINES_BEFORE_BANNER);
            assertThat(beforeBanner)
                    .doesNotContain(
                            "dropped after",
                            "warm-up stopped",
                            "ConsumerConfig values",
                            "ProducerConfig values",
                            "AdminClientConfig values",
                            "StreamsConfig values",
                            "UNKNOWN_TOPIC_OR_PARTITION",
                            "Waiting for topic");
            // Every service warmed its hot paths before it reported ready, and left nothing to see.
            assertThat(beforeBanner
                            .lines()
                            .filter(line -> line.contains("Warmed up in"))
                            .map(line -> line.replaceFirst(".*before reporting ready: ", "")))
                    .hasSize(4)
                    .anySatisfy(line -> assertThat(line).startsWith("ingest POST "))
                    .anySatisfy(line -> assertThat(line).startsWith("decoder "))
                    .anySatisfy(line -> assertThat(line).startsWith("rules "))
                    .anySatisfy(line -> assertThat(line).startsWith("notify ").contains(", live "));
            // One heap: the last service to start collected it once, for every warm-up before it.
            assertThat(beforeBanner.lines().filter(line -> line.contains("heap collected in")))
                    .singleElement()
                    .asString()
                    .contains("before reporting ready: ingest POST ");
            assertThat(beforeBanner).contains("Kafka broker warmed up in");
            var warmupData = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://127.0.0.1:" + notifyPort + "/data-units/count?channel=warmup"))
                                    .header("Authorization", "Bearer demo-dashboard-token")
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(warmupData.body()).isEqualTo("{\"count\":0}");
            // Notify's live rehearsal had a WebSocket session of its own: neither its upgrade nor its messages count.
            var notifyMetrics = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + notifyPort + "/actuator/prometheus"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(notifyMetrics.body())
                    .contains("notify_sessions")
                    .doesNotContain("uri=\"/ws\"", "notify_messages_sent_total{", "notify_delivery_latency");
            // Ingest's rehearsed uplinks, the decoder's and notify's data units and the broker's records went through
            // producers (and consumers) in topics of the warm-ups' own, deleted by the time they reported ready; the
            // services' consumers read by assignment, and the broker warm-up's group is deleted with its topic.
            try (var admin = Admin.create(
                    Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports.get("KAFKA")))) {
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                        .contains("uplinks.encoded")
                        .noneMatch(topic -> topic.startsWith("_iot-pipeline-warmup"));
                assertThat(admin.listGroups().all().get(10, TimeUnit.SECONDS))
                        .extracting(group -> group.groupId())
                        .contains("decoder")
                        .doesNotContain("decoder-warmup", "_iot-pipeline-warmup-broker");
            }
            assertThat(String.join("\n", lines.subList(banner, lines.size())))
                    .contains(
                            "admin token      demo-admin-token",
                            "dashboard token  demo-dashboard-token",
                            "device key       demo-device-key",
                            "READY");
        } finally {
            run.destroy();
            if (!run.waitFor(60, TimeUnit.SECONDS)) {
                run.destroyForcibly().waitFor();
            }
        }
        // The broker and PostgreSQL stop with the stack; nothing it started keeps running.
        for (var child : children) {
            await().atMost(Duration.ofSeconds(30)).until(() -> gone(child.pid()));
        }
    }

    /** Gone, or a zombie waiting for an init that does not reap: either way no longer running. */
    private static boolean gone(long pid) {
        try {
            var stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException noSuchProcess) {
            return true;
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
