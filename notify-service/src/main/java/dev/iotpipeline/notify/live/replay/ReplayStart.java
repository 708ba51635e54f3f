package dev.iotpipeline.notify.live.replay;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.TopicReader;
import dev.iotpipeline.notify.live.feed.LiveEvent;
import dev.iotpipeline.notify.live.feed.LiveStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** Finds where each partition of a replay starts, and what of it retention has already deleted. */
final class ReplayStart {

    /** Where an event sits in its topic. */
    private record Located(int partition, long offset, Instant timestamp) {}

    // An event is published after its id was made, but on the producer's clock, which may run behind the
    // clock that made the id; the search for it starts this much earlier.
    private static final Duration CLOCK_SKEW = Duration.ofSeconds(10);

    private ReplayStart() {}

    /**
     * Where each partition's replay starts, adding to {@code lost} what retention deleted of what was asked
     * for. An event found in the topic pins its own partition exactly; on the others the client is taken to
     * have had what was published up to the event's millisecond, which is the order a live feed delivers
     * partitions in, to within events of several partitions published in the same instant: two instances may
     * deliver those in different orders, and one id cannot say which order the client saw.
     */
    static Map<TopicPartition, Long> starts(
            TopicReader reader, LiveStream stream, Replay.From from, List<RetentionGap.Lost> lost)
            throws InterruptedException {
        var partitions = reader.partitions();
        var retained = retained(reader, partitions);
        var starts = new HashMap<TopicPartition, Long>();
        if (from.offsets() != null) {
            for (var tp : partitions) {
                // A partition the log never saw was added after this instance started: all of it is new.
                long wanted = from.offsets().getOrDefault(tp.partition(), 0L);
                var held = retained.get(tp);
                RetentionGap.fromOffset(tp.partition(), wanted, held).ifPresent(lost::add);
                starts.put(tp, Math.max(wanted, held.beginningOffset()));
            }
            return starts;
        }
        var time = from.time();
        var others = partitions;
        if (from.event() != null) {
            var at = locate(reader, stream, from.event());
            if (at.isPresent()) {
                var tp = new TopicPartition(stream.topic().topicName(), at.get().partition());
                starts.put(tp, at.get().offset() + 1);
                others = partitions.stream().filter(p -> !p.equals(tp)).toList();
                time = at.get().timestamp().plusMillis(1);
            } else {
                // Not in the topic: deleted by retention (the gap below says so) or not an event of this stream.
                time = Ids.timeOf(from.event());
            }
        }
        starts.putAll(reader.offsetsAt(Math.max(0, time.toEpochMilli()), others));
        for (var tp : others) {
            RetentionGap.fromTime(tp.partition(), time, retained.get(tp)).ifPresent(lost::add);
        }
        return starts;
    }

    /** What retention deleted under a running replay, from the positions {@link TopicReader.Deleted} was told. */
    static List<RetentionGap.Lost> lost(TopicReader reader, Map<TopicPartition, Long> deleted) {
        var retained = retained(reader, deleted.keySet());
        var lost = new ArrayList<RetentionGap.Lost>();
        deleted.forEach((tp, position) -> RetentionGap.fromOffset(tp.partition(), position, retained.get(tp))
                .ifPresent(lost::add));
        return lost;
    }

    /** Finds the event {@code id} in the topic, reading from shortly before its id's time up to the reader's ends. */
    private static Optional<Located> locate(TopicReader reader, LiveStream stream, UUID id)
            throws InterruptedException {
        long from = Ids.timeOf(id).minus(CLOCK_SKEW).toEpochMilli();
        reader.seek(reader.offsetsAt(Math.max(0, from), reader.partitions()));
        var needle = id.toString().getBytes(StandardCharsets.UTF_8);
        var found = new AtomicReference<Located>();
        // What retention deletes meanwhile is of no interest here: the replay itself reports its own gaps.
        reader.read(
                record -> {
                    if (contains(record.value(), needle) && isEvent(stream, record, id)) {
                        found.set(new Located(
                                record.partition(), record.offset(), Instant.ofEpochMilli(record.timestamp())));
                        return false;
                    }
                    return true;
                },
                deleted -> true);
        return Optional.ofNullable(found.get());
    }

    private static boolean isEvent(LiveStream stream, ConsumerRecord<String, byte[]> record, UUID id) {
        try {
            return LiveEvent.of(stream, record).id().equals(id);
        } catch (RuntimeException e) {
            return false;
        }
    }

    // A byte search skips parsing the JSON of every record on the way to the one that is wanted.
    private static boolean contains(byte[] haystack, byte[] needle) {
        if (haystack == null) {
            return false;
        }
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Beginning offsets and first retained records, asked for every partition at once. */
    private static Map<TopicPartition, RetentionGap.Retained> retained(
            TopicReader reader, Collection<TopicPartition> partitions) {
        var beginnings = reader.beginningOffsets(partitions);
        var first = reader.offsetsForTimes(0, partitions);
        var retained = new HashMap<TopicPartition, RetentionGap.Retained>();
        for (var tp : partitions) {
            var hit = first.get(tp);
            retained.put(
                    tp,
                    new RetentionGap.Retained(
                            beginnings.get(tp),
                            hit == null ? null : hit.offset(),
                            hit == null ? null : Instant.ofEpochMilli(hit.timestamp())));
        }
        return retained;
    }
}
