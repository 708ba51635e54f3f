package dev.iotpipeline.kafka.topic;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads every partition of one topic by assignment, without a consumer group: seek, read up to the end offsets
 * taken when it was assigned, then, if asked, follow.
 */
public final class TopicReader implements AutoCloseable {

    /** Receives each record read; false stops reading. */
    @FunctionalInterface
    public interface Handler {
        boolean handle(ConsumerRecord<String, byte[]> record) throws InterruptedException;
    }

    /**
     * Told the positions, by partition, that retention deleted before they were read (the reader has moved each to
     * the first offset still held); false stops reading. Only a consumer with {@code auto.offset.reset=none} is told:
     * any other moves on its own.
     */
    @FunctionalInterface
    public interface Deleted {
        boolean positions(Map<TopicPartition, Long> deleted) throws InterruptedException;
    }

    /**
     * How long the broker may hold a reader's fetch, and its poll wait, while there is nothing new to read. A fetch is
     * answered as soon as a record arrives, so this bounds only how often an idle reader asks: with Kafka's default
     * (500 ms) and a poll every 200 ms, each registry and live-feed reader of a stack at rest cost its service and the
     * broker about 2 ms of CPU a second ({@code docs/benchmarks/idle.md}).
     */
    static final Duration IDLE_WAIT = Duration.ofSeconds(5);

    private static final Duration METADATA = Duration.ofSeconds(10);

    private final Consumer<String, byte[]> consumer;
    private final String topic;
    private volatile boolean stopped;
    private List<TopicPartition> partitions = List.of();
    private Map<TopicPartition, Long> ends = Map.of();

    TopicReader(Consumer<String, byte[]> consumer, String topic) {
        this.consumer = consumer;
        this.topic = topic;
    }

    /**
     * A reader of {@code topic} with the connection settings of {@code clientProperties} (a service's consumer
     * configuration, see {@link ReaderProperties}) and {@code settings} over them.
     */
    public static TopicReader open(
            Map<String, Object> clientProperties, String clientId, String topic, Map<String, Object> settings) {
        var props = ReaderProperties.reader(clientProperties, clientId);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, idleFetchWaitMs(props));
        props.putAll(settings);
        return new TopicReader(
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer()), topic);
    }

    /** {@link #IDLE_WAIT}, or half the request timeout where that is shorter: a fetch held longer would time out. */
    static int idleFetchWaitMs(Map<String, Object> props) {
        long wait = IDLE_WAIT.toMillis();
        var requestTimeout = props.get(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG);
        if (requestTimeout != null) {
            wait = Math.min(wait, Long.parseLong(requestTimeout.toString().trim()) / 2);
        }
        return (int) wait;
    }

    /**
     * Assigns every partition of the topic and takes their end offsets, the end of {@link #read}; false, with
     * nothing assigned, when the topic has no partitions (it does not exist yet).
     */
    public boolean assign() {
        var infos = consumer.partitionsFor(topic, METADATA);
        partitions = infos == null
                ? List.of()
                : infos.stream()
                        .map(i -> new TopicPartition(i.topic(), i.partition()))
                        .toList();
        consumer.assign(partitions);
        ends = Map.copyOf(consumer.endOffsets(partitions));
        return !partitions.isEmpty();
    }

    public List<TopicPartition> partitions() {
        return partitions;
    }

    /** The end offsets taken by {@link #assign()}: what existed then is below them. */
    public Map<TopicPartition, Long> ends() {
        return ends;
    }

    public void seekToBeginning() {
        consumer.seekToBeginning(partitions);
    }

    public void seekToEnd() {
        consumer.seekToEnd(partitions);
    }

    /** Moves each given partition to its offset, one past the end being read as the end: there is nothing there yet. */
    public void seek(Map<TopicPartition, Long> offsets) {
        offsets.forEach((tp, offset) -> consumer.seek(tp, Math.min(offset, ends.get(tp))));
    }

    /** Each partition's current position: where a seek to the beginning or end resolved to. */
    public Map<Integer, Long> positions() {
        var positions = new HashMap<Integer, Long>();
        partitions.forEach(tp -> positions.put(tp.partition(), consumer.position(tp)));
        return positions;
    }

    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> of) {
        return consumer.beginningOffsets(of);
    }

    /** The first record at or after {@code epochMilli} in each partition, null where there is none. */
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(long epochMilli, Collection<TopicPartition> of) {
        var query = new HashMap<TopicPartition, Long>();
        of.forEach(tp -> query.put(tp, epochMilli));
        return consumer.offsetsForTimes(query);
    }

    /** The offset of the first record at or after {@code epochMilli} in each partition, the end where there is none. */
    public Map<TopicPartition, Long> offsetsAt(long epochMilli, Collection<TopicPartition> of) {
        var found = offsetsForTimes(epochMilli, of);
        var offsets = new HashMap<TopicPartition, Long>();
        for (var tp : of) {
            var hit = found.get(tp);
            offsets.put(tp, hit == null ? ends.get(tp) : hit.offset());
        }
        return offsets;
    }

    /**
     * Hands {@code handler} every record from the current positions up to the end offsets (records at or past
     * their partition's end are skipped: they came after the reading started); true when it got there, false when
     * the handler, {@code deleted} or {@link #stop()} stopped it first.
     */
    public boolean read(Handler handler, Deleted deleted) throws InterruptedException {
        return loop(handler, deleted, false, () -> {});
    }

    /**
     * Hands {@code handler} every record from the current positions on, until it or {@link #stop()} stops it, and
     * runs {@code caughtUp} once every partition's position reached its end offset.
     */
    public void follow(Handler handler, Runnable caughtUp) throws InterruptedException {
        loop(handler, positions -> true, true, caughtUp);
    }

    private boolean loop(Handler handler, Deleted deleted, boolean follow, Runnable caughtUp)
            throws InterruptedException {
        var remaining = new HashMap<>(ends);
        boolean reached = reached(remaining, caughtUp);
        while (!stopped && (follow || !reached)) {
            ConsumerRecords<String, byte[]> records;
            try {
                records = consumer.poll(IDLE_WAIT);
            } catch (OffsetOutOfRangeException e) {
                if (!moveDeleted(e.offsetOutOfRangePartitions(), deleted)) {
                    return false;
                }
                records = ConsumerRecords.empty();
            }
            for (var record : records) {
                if (!follow && record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
                    continue;
                }
                if (!handler.handle(record)) {
                    return false;
                }
            }
            reached = reached || reached(remaining, caughtUp);
        }
        return !stopped;
    }

    private boolean reached(Map<TopicPartition, Long> remaining, Runnable caughtUp) {
        remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        if (remaining.isEmpty()) {
            caughtUp.run();
        }
        return remaining.isEmpty();
    }

    /**
     * Moves a position that retention deleted to the first record still held, rather than letting the consumer
     * jump somewhere on its own, and tells {@code deleted}; a position past the end means the log was truncated
     * under the reader, and nothing beyond it exists to read.
     */
    private boolean moveDeleted(Map<TopicPartition, Long> outOfRange, Deleted deleted) throws InterruptedException {
        var beginnings = consumer.beginningOffsets(outOfRange.keySet());
        var lost = new HashMap<TopicPartition, Long>();
        outOfRange.forEach((tp, position) -> {
            long beginning = beginnings.get(tp);
            if (position < beginning) {
                lost.put(tp, position);
                consumer.seek(tp, beginning);
            } else {
                consumer.seekToEnd(List.of(tp));
            }
        });
        return lost.isEmpty() || deleted.positions(lost);
    }

    /** Stops reading from another thread: {@link #read} returns false, {@link #follow} returns or throws a wakeup. */
    public void stop() {
        stopped = true;
        consumer.wakeup();
    }

    /**
     * Closes at once: a reader has no group to leave and no offsets to commit, and the only request its close would
     * wait for (ending its fetch session) queues at the broker behind the fetch held there for up to {@link
     * #IDLE_WAIT}, so any wait for it lasts its whole bound; the broker evicts an idle session when it needs the room.
     */
    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
}
