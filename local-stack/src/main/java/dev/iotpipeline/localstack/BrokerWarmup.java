package dev.iotpipeline.localstack;

import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded broker's hot paths before the stack says READY: idempotent acks=all produce requests of one record
 * and of a hundred, fetches and offset commits, on a topic and group of its own that are deleted afterwards, so a
 * fresh or restarted broker answers the first uplinks with compiled code.
 */
final class BrokerWarmup {

    private static final Logger log = LoggerFactory.getLogger(BrokerWarmup.class);

    /** The warm-up consumer's group, for its commits; deleted afterwards. */
    static final String GROUP = RehearsalTopic.PREFIX + "broker";

    /** Long enough for the produce and fetch paths to be compiled; measured in docs/benchmarks/latency.md. */
    static final Duration BUDGET = Duration.ofSeconds(3);

    /** About a data unit's size. */
    private static final byte[] VALUE = new byte[400];

    private BrokerWarmup() {}

    /**
     * What a warm-up did, logged by the thread that waits for it: logged from the warm-up's own thread while the
     * services start, the line could fall into Spring Boot's reset of the shared logging system and be lost.
     */
    record Outcome(boolean completed, String message) {

        void log() {
            if (completed) {
                log.info(message);
            } else {
                log.warn(message);
            }
        }
    }

    /** Produces, fetches and commits for about {@code budget}; a failure is reported, never thrown. */
    static Outcome run(String bootstrapServers, Duration budget) {
        long started = System.nanoTime();
        long deadline = started + budget.toNanos();
        var client = Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        int produced = 0;
        try (var admin = Admin.create(client);
                var producer = new KafkaProducer<byte[], byte[]>(producerConfig(bootstrapServers))) {
            // A fresh name each time: a warm-up a kill -9 cut short leaves its topic, which must not fail the next.
            try (var topic = RehearsalTopic.create(
                            RehearsalTopic.freshName("broker"),
                            1,
                            (short) 1,
                            Admin.create(client),
                            producer::partitionsFor);
                    var consumer = new KafkaConsumer<byte[], byte[]>(consumerConfig(bootstrapServers))) {
                consumer.assign(topic.partitions());
                for (int round = 0; System.nanoTime() < deadline; round++) {
                    // Mostly lone records, as single POSTs arrive, and now and then a batch, as batches do.
                    int records = round % 10 == 9 ? 100 : 1;
                    var acks = new ArrayList<Future<RecordMetadata>>(records);
                    for (int i = 0; i < records; i++) {
                        acks.add(producer.send(new ProducerRecord<>(
                                topic.name(), Integer.toString(round).getBytes(), VALUE)));
                    }
                    for (var ack : acks) {
                        ack.get(10, TimeUnit.SECONDS);
                    }
                    produced += records;
                    if (!consumer.poll(Duration.ofMillis(1)).isEmpty()) {
                        consumer.commitAsync();
                    }
                }
                consumer.commitSync();
            } finally {
                deleteGroup(admin);
            }
            return new Outcome(
                    true,
                    "Kafka broker warmed up in %d ms (%d records produced, fetched and committed)"
                            .formatted((System.nanoTime() - started) / 1_000_000, produced));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, "Kafka broker warm-up interrupted after %d records".formatted(produced));
        } catch (Exception e) {
            return new Outcome(false, "Kafka broker warm-up stopped after %d records: %s".formatted(produced, e));
        }
    }

    /**
     * The group exists only once something was committed: on a loaded box every one-millisecond poll can come back
     * empty, and then there is nothing to delete.
     */
    private static void deleteGroup(Admin admin) throws Exception {
        try {
            admin.deleteConsumerGroups(List.of(GROUP)).all().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
    }

    private static Map<String, Object> producerConfig(String bootstrapServers) {
        return Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class);
    }

    private static Map<String, Object> consumerConfig(String bootstrapServers) {
        return Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                GROUP,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class);
    }
}
