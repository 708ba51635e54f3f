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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pipeline run --processes} as an operator runs it: a kill -9 of a service process, of the broker and of
 * PostgreSQL each ends with that part started again and said so on the console, and the pipeline stores uplinks
 * again afterwards; then {@code ./pipeline join} adds a decoder to it and takes it away again.
 */
class SupervisedRunIT {

    private static final Pattern BACK =
            Pattern.compile("\\[supervisor] \\S+ (.+) is back \\(pid (\\d+)\\), ready" + " ([0-9.]+) s after it died");

    private static final Pattern JOINED = Pattern.compile("decoder:(\\d+) \\(pid \\d+\\) joined the stack: ready in");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path data;

    @Test
    void aKilledServiceBrokerOrDatabaseIsRestartedAndSaidSoAndAJoiningInstanceServesUntilStopped() throws Exception {
        var console = data.resolve("console.txt");
        var ports = PipelineRun.freePorts();
        var builder = PipelineRun.command(data, ports, console, "--processes");
        var run = builder.start();
        try {
            await().atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        assertThat(run.isAlive())
                                .as("./pipeline run exited:%n%s", read(console))
                                .isTrue();
                        return read(console).lines().anyMatch("READY"::equals);
                    });
            assertThat(read(console))
                    .contains("A part that dies is restarted: kafka, postgres, decoder :" + ports.get("DECODER"));
            var ingest = "http://127.0.0.1:" + ports.get("INGEST");
            var notify = "http://127.0.0.1:" + ports.get("NOTIFY");

            long decoder = pidOf(console, "decoder");
            kill9(decoder);
            var decoderBack = awaitBack(console, "decoder :" + ports.get("DECODER"));
            System.out.printf(
                    "Supervised restart: %s ready %.1f s after its kill -9%n",
                    decoderBack.part(), decoderBack.seconds());
            assertThat(read(console))
                    .contains("decoder :" + ports.get("DECODER") + " died (killed by signal 9, SIGKILL; its log: ");
            assertThat(decoderBack.pid()).isNotEqualTo(decoder);
            assertThat(ready("http://127.0.0.1:" + ports.get("DECODER"))).isTrue();

            kill9(pidOf(console, "kafka"));
            var kafkaBack = awaitBack(console, "kafka");
            System.out.printf("Supervised restart: kafka ready %.1f s after its kill -9%n", kafkaBack.seconds());

            kill9(pidOf(console, "postgres"));
            var postgresBack = awaitBack(console, "postgres");
            System.out.printf("Supervised restart: postgres ready %.1f s after its kill -9%n", postgresBack.seconds());
            assertThat(read(console)).contains("postgres died (its postmaster is gone");

            // Whatever restarted, an uplink posted now is stored.
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() ->
                            send(HttpRequest.newBuilder(URI.create(ingest + "/sensor-data/supervised/encoded/em300th"))
                                                    .header("Authorization", "Bearer demo-device-key")
                                                    .header("Content-Type", "application/json")
                                                    .POST(HttpRequest.BodyPublishers.ofString(
                                                            "{\"deviceId\":\"em300-1\",\"payloadHex\":\"01755C03673401046865\",\"id\":"
                                                                    + "\"supervised-1\"}")))
                                            .statusCode()
                                    == 202);
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        var count =
                                send(HttpRequest.newBuilder(URI.create(notify + "/data-units/count?channel=supervised"))
                                        .header("Authorization", "Bearer demo-dashboard-token"));
                        return count.statusCode() == 200 && count.body().contains("\"count\":1");
                    });
            assertThat(read(console)).doesNotContain("NOT restarted again");

            // Scaling out: one more decoder joins the running stack, warms up, takes partitions, and leaves on SIGTERM.
            var joinConsole = data.resolve("join.txt");
            var join = PipelineRun.pipeline(data, ports, joinConsole, "join", "decoder")
                    .start();
            try {
                var joined = await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(500))
                        .until(
                                () -> {
                                    assertThat(join.isAlive())
                                            .as("./pipeline join exited:%n%s", read(joinConsole))
                                            .isTrue();
                                    return JOINED.matcher(read(joinConsole));
                                },
                                Matcher::find);
                var joinedUrl = "http://127.0.0.1:" + joined.group(1);
                assertThat(read(joinConsole).lines()).contains("READY");
                assertThat(ready(joinedUrl))
                        .as("the joined decoder owns partitions")
                        .isTrue();
                assertThat(send(HttpRequest.newBuilder(URI.create(joinedUrl + "/device-types/em300th"))
                                        .header("Authorization", "Bearer demo-admin-token"))
                                .statusCode())
                        .isEqualTo(200);
            } finally {
                join.destroy();
            }
            assertThat(join.waitFor(90, TimeUnit.SECONDS))
                    .as("./pipeline join stops on SIGTERM")
                    .isTrue();
            assertThat(read(joinConsole)).contains("Stopping decoder:");
        } finally {
            run.destroy();
            if (!run.waitFor(90, TimeUnit.SECONDS)) {
                run.destroyForcibly().waitFor();
            }
        }
    }

    private record Back(String part, long pid, double seconds) {}

    /** Waits for the console's "is back" line of {@code part}; generous, as other builds share the machine. */
    private static Back awaitBack(Path console, String part) {
        return await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> {
                            var matcher = BACK.matcher(read(console));
                            Back back = null;
                            while (matcher.find()) {
                                if (matcher.group(1).equals(part)) {
                                    back = new Back(
                                            part,
                                            Long.parseLong(matcher.group(2)),
                                            Double.parseDouble(matcher.group(3)));
                                }
                            }
                            return back;
                        },
                        back -> back != null);
    }

    /** The newest pid the console gives a part: the banner's process list, then the supervisor's lines. */
    private static long pidOf(Path console, String part) throws IOException {
        long pid = -1;
        var banner = Pattern.compile("^ {4}" + Pattern.quote(part) + " +pid (\\d+)");
        for (var line : read(console).lines().toList()) {
            var listed = banner.matcher(line);
            if (listed.find()) {
                pid = Long.parseLong(listed.group(1));
            }
            var back = BACK.matcher(line);
            if (back.find() && back.group(1).split(" ")[0].equals(part)) {
                pid = Long.parseLong(back.group(2));
            }
        }
        assertThat(pid).as("pid of %s in the console", part).isPositive();
        return pid;
    }

    private boolean ready(String url) {
        return send(HttpRequest.newBuilder(URI.create(url + "/actuator/health/readiness")))
                        .statusCode()
                == 200;
    }

    /** An answer; status -1 when none came. */
    private record Answer(int statusCode, String body) {}

    private Answer send(HttpRequest.Builder request) {
        try {
            var response =
                    http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Answer(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void kill9(long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor())
                .as("kill -9 %d", pid)
                .isZero();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
