package dev.iotpipeline.notify.live.warmup;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import dev.iotpipeline.notify.live.feed.LiveFeed;
import dev.iotpipeline.notify.live.feed.LiveStream;
import dev.iotpipeline.web.warmup.Warmup;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Notify's live path before readiness: data units written to a {@link RehearsalTopic} of its own, read by a
 * {@link LiveFeed} as the live one reads data-units (a consumer with the listeners' configuration, the delivery log,
 * the subscription index), and delivered over a real WebSocket session of the {@link LiveRehearsal}'s, connected to
 * this instance's {@code /ws} through its security chain; each round waits until the session has received every data
 * unit, so the first dashboards after readiness do not meet a cold fetch, dispatch or frame write.
 */
final class LiveWarmup implements Warmup, AutoCloseable {

    /** Data units a round: about what one poll of the seed shape's first waves brings. */
    static final int PER_ROUND = 100;

    private static final String SUBSCRIPTION = "warmup";

    private final LiveRehearsal rehearsal;
    private final IntSupplier port;
    private final KafkaOperations<String, Object> kafka;
    private final Supplier<Admin> admins;
    private final Map<String, Object> kafkaClient;
    private final MeterRegistry meters;
    private final short replicationFactor;
    /** From the rehearsal topic's creation to its deletion; null while there is none. */
    private RehearsalTopic topic;

    private LiveFeed feed;
    private WarmupSocket socket;

    /**
     * @param admins an admin client for the rehearsal topic's creation and deletion, closed with the warm-up
     * @param kafkaClient the listeners' consumer configuration, as the live feed's
     * @param meters the rehearsal's own registry for the feed's hop timers, which nothing exports
     * @param replicationFactor data-units', so that acks=all waits for the same replicas
     */
    LiveWarmup(
            LiveRehearsal rehearsal,
            IntSupplier port,
            KafkaOperations<String, Object> kafka,
            Supplier<Admin> admins,
            Map<String, Object> kafkaClient,
            MeterRegistry meters,
            short replicationFactor) {
        this.rehearsal = rehearsal;
        this.port = port;
        this.kafka = kafka;
        this.admins = admins;
        this.kafkaClient = kafkaClient;
        this.meters = meters;
        this.replicationFactor = replicationFactor;
    }

    @Override
    public String name() {
        return "live";
    }

    @Override
    public void exercise(int round) throws Exception {
        if (round == 0) {
            start();
        }
        var now = Instant.now();
        var writes = new ArrayList<CompletableFuture<?>>(PER_ROUND);
        for (int i = 0; i < PER_ROUND; i++) {
            var unit = unit(round * PER_ROUND + i, now);
            writes.add(kafka.send(new ProducerRecord<>(topic.name(), unit.deviceId(), unit)));
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        // One message per data unit, in the order the feed dispatched them; a lost one ends the warm-up at the
        // socket's read timeout, with the warning the runner logs.
        for (int i = 0; i < PER_ROUND; i++) {
            var message = socket.readText();
            if (!message.startsWith("{\"type\":\"data-unit\"")) {
                throw new IllegalStateException("the rehearsal's session was sent " + message);
            }
        }
    }

    private void start() throws Exception {
        int partitions =
                kafka.partitionsFor(PipelineTopic.DATA_UNITS.topicName()).size();
        topic = RehearsalTopic.create(
                RehearsalTopic.freshName("notify"), partitions, replicationFactor, admins.get(), kafka::partitionsFor);
        feed = new LiveFeed(
                        kafkaClient,
                        Map.of(LiveStream.DATA_UNITS, topic.name()),
                        rehearsal.registry(),
                        rehearsal.logs(),
                        new HopTimers(meters))
                .start(Duration.ofSeconds(10));
        rehearsal.begin();
        socket = WarmupSocket.open(port.getAsInt(), "/ws", rehearsal.secret());
        socket.sendText("{\"type\":\"subscribe\",\"id\":\"" + SUBSCRIPTION
                + "\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"" + rehearsal.channel() + "\"}}");
        var answer = socket.readText();
        if (!answer.contains("\"subscribed\"")) {
            throw new IllegalStateException("the rehearsal's subscription was answered " + answer);
        }
    }

    private DataUnit unit(int n, Instant now) {
        return new DataUnit(
                new UUID(0x6c697665L, n),
                DataUnit.SCHEMA_VERSION,
                new UUID(0x7570L, n),
                rehearsal.channel(),
                "em300th",
                "warmup-" + n % 1000,
                now,
                now,
                now,
                Map.of("temperature", 21.5 + n % 10, "humidity", 40.0 + n % 7, "battery", 3.6),
                Map.of());
    }

    @Override
    public void close() throws Exception {
        try {
            if (socket != null) {
                socket.close();
                socket = null;
            }
            if (feed != null) {
                feed.close();
                feed = null;
            }
        } finally {
            rehearsal.end();
            if (topic != null) {
                var created = topic;
                topic = null;
                created.close();
            }
        }
    }
}
