package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaOutageIT {

    private static final String UPLINK = "{\"deviceId\":\"o-%d\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final int CLIENTS = 8;
    private static final int REQUESTS_PER_CLIENT = 15;

    @TempDir
    Path data;

    @Test
    void shouldRefuseFastWhileKafkaIsDownAcceptAgainSoonAfterItReturnsAndLoseNothingItAccepted() throws Exception {
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);
            int accepted = 0;
            for (int i = 0; i < 5; i++) {
                accepted += client.postUplink("outage", "em300th", UPLINK.formatted(i))
                                        .statusCode()
                                == 202
                        ? 1
                        : 0;
            }

            // when the broker stops while several clients keep sending
            stack.broker().stop();
            var outage = sendConcurrently(client, 100);

            // then every request gets a 503 with Retry-After: the first wave within the bounded send time, the
            // rest refused at once by the open circuit
            var latencies = outage.stream().map(Timed::elapsed).sorted().toList();
            var median = latencies.get(latencies.size() / 2);
            System.out.printf(
                    "Kafka outage: %d requests from %d clients, 503 latency median %d ms, p90 %d ms, max %d ms%n",
                    latencies.size(),
                    CLIENTS,
                    median.toMillis(),
                    latencies.get(latencies.size() * 9 / 10).toMillis(),
                    latencies.getLast().toMillis());
            for (var timed : outage) {
                IngestApiContract.assertProblem(timed.response(), 503, "kafka-unavailable");
                assertThat(timed.response().headers().firstValue("Retry-After"))
                        .hasValueSatisfying(
                                seconds -> assertThat(Long.parseLong(seconds)).isPositive());
                assertThat(timed.elapsed()).isLessThan(Duration.ofSeconds(8));
            }
            // (the median is printed, not asserted: speed is measured by the fault suite's report)

            // and ingest says it is not ready, and shows operators why
            assertThat(client.get(stack.ingestUrl() + "/actuator/health/readiness")
                            .statusCode())
                    .isEqualTo(503);
            assertThat(ingestMetric(client, stack.ingestUrl(), "ingest_kafka_circuit_open"))
                    .isEqualTo(1.0);
            var refused = ingestMetric(client, stack.ingestUrl(), "ingest_kafka_circuit_refused_total");
            assertThat(refused).isGreaterThanOrEqualTo(latencies.size() - CLIENTS);
            // The first wave and the circuit's half-open probes reached the producer, which may still write them.
            long reachedProducer = latencies.size() - (long) refused;

            // when it comes back, uplinks are accepted again within a few seconds and ingest is ready again
            stack.broker().restart(Duration.ofSeconds(90));
            long back = System.nanoTime();
            var seq = new AtomicInteger(200);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> client.postUplink("outage", "em300th", UPLINK.formatted(seq.getAndIncrement()))
                                    .statusCode()
                            == 202);
            System.out.printf(
                    "Kafka outage: first 202 %d ms after the broker was back%n",
                    Duration.ofNanos(System.nanoTime() - back).toMillis());
            accepted += 1;
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> client.get(stack.ingestUrl() + "/actuator/health/readiness")
                                    .statusCode()
                            == 200);
            assertThat(ingestMetric(client, stack.ingestUrl(), "ingest_kafka_circuit_open"))
                    .isZero();

            // and everything answered 202 is stored; of what was answered 503, at most what reached the producer
            // (not refused by the open circuit) may have been written too
            int expected = accepted;
            await().atMost(Duration.ofSeconds(60)).until(() -> client.storedCount("outage") >= expected);
            assertThat(client.storedCount("outage")).isBetween((long) expected, expected + reachedProducer);
        }
    }

    /** {@link #CLIENTS} clients, each sending {@link #REQUESTS_PER_CLIENT} uplinks one after another. */
    private static List<Timed> sendConcurrently(PipelineClient client, int firstDevice) throws Exception {
        try (var pool = Executors.newFixedThreadPool(CLIENTS)) {
            var futures = new ArrayList<Future<List<Timed>>>();
            for (int c = 0; c < CLIENTS; c++) {
                int clientNo = c;
                futures.add(pool.submit((Callable<List<Timed>>) () -> {
                    var timed = new ArrayList<Timed>();
                    for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                        int device = firstDevice + clientNo * REQUESTS_PER_CLIENT + i;
                        long started = System.nanoTime();
                        var response = client.postUplink("outage", "em300th", UPLINK.formatted(device));
                        timed.add(new Timed(response, Duration.ofNanos(System.nanoTime() - started)));
                    }
                    return timed;
                }));
            }
            var all = new ArrayList<Timed>();
            for (var future : futures) {
                all.addAll(future.get());
            }
            return all;
        }
    }

    private static double ingestMetric(PipelineClient client, String ingestUrl, String name) {
        var line = Pattern.compile(Pattern.quote(name) + "(\\{[^}]*})? (.+)");
        return client.get(ingestUrl + "/actuator/prometheus")
                .body()
                .lines()
                .map(line::matcher)
                .filter(Matcher::matches)
                .mapToDouble(m -> Double.parseDouble(m.group(2)))
                .sum();
    }

    private record Timed(HttpResponse<String> response, Duration elapsed) {}
}
