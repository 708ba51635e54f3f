package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.web.warmup.Warmup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Ingest's hot path before readiness: device uplinks POSTed to its own port, eight at a time, single and batched, through Tomcat,
 * the lean path, JSON parsing, validation and the event's serialization (a {@link Rehearsal}, so nothing reaches
 * Kafka or the metrics), and the producer's metadata and connection for uplinks.encoded.
 */
final class IngestWarmup implements Warmup {

    /** Requests in flight at once. */
    private static final int PARALLEL = 8;

    private static final String UPLINK = "{\"deviceId\":\"warmup-%d\",\"payloadHex\":\"01755C03673401046865\",\"fPort\":85}";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final IntSupplier port;
    private final Rehearsal rehearsal;
    private final KafkaOperations<String, Object> kafka;

    IngestWarmup(IntSupplier port, Rehearsal rehearsal, KafkaOperations<String, Object> kafka) {
        this.port = port;
        this.rehearsal = rehearsal;
        this.kafka = kafka;
    }

    @Override
    public String name() {
        return "ingest POST";
    }

    @Override
    public void exercise(int round) throws Exception {
        if (round == 0) {
            kafka.partitionsFor(PipelineTopic.UPLINKS_ENCODED.topicName());
        }
        // Several at once, over as many connections, as devices arrive; every tenth round's are batches of ten, as
        // network servers and gateways send them.
        var answers = new ArrayList<CompletableFuture<HttpResponse<String>>>(PARALLEL);
        for (int i = 0; i < PARALLEL; i++) {
            int n = round * PARALLEL + i;
            var body = round % 10 == 9 ? batch(n) : UPLINK.formatted(n % 1000);
            answers.add(http.sendAsync(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port.getAsInt() + "/sensor-data/warmup/encoded/em300th"))
                    .header("Content-Type", "application/json")
                    .header(Rehearsal.HEADER, rehearsal.secret())
                    .timeout(Duration.ofSeconds(5))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (var answer : answers) {
            var response = answer.get();
            if (response.statusCode() != 202) {
                throw new IllegalStateException("a rehearsed uplink was answered " + response.statusCode() + ": "
                        + response.body());
            }
        }
    }

    private static String batch(int round) {
        var items = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
            items.append(i == 0 ? "" : ",").append(UPLINK.formatted((round + i) % 1000));
        }
        return items.append(']').toString();
    }
}
