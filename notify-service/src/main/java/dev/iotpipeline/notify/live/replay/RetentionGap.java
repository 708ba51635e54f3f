package dev.iotpipeline.notify.live.replay;

import dev.iotpipeline.notify.live.feed.LiveStream;
import dev.iotpipeline.notify.live.wire.ServerMessages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** Decides whether a replay can start where a client asked, or retention has already deleted part of what it missed. */
final class RetentionGap {

    /**
     * What Kafka still holds of one partition: its beginning offset, and the offset and time of its first
     * record ({@code firstOffset} and {@code firstAt} null when retention left it empty).
     */
    record Retained(long beginningOffset, Long firstOffset, Instant firstAt) {

        long firstRetainedOffset() {
            return firstOffset != null ? firstOffset : beginningOffset;
        }
    }

    /**
     * One partition where events the client asked for may be gone; exactly one of {@code requestedOffset} and
     * {@code requestedTime} is set, after what the client asked for.
     */
    record Lost(
            int partition,
            Long requestedOffset,
            Instant requestedTime,
            long firstRetainedOffset,
            Instant firstRetainedAt) {}

    private RetentionGap() {}

    /** Offsets are exact: the client wanted {@code requested}, and everything below the beginning is gone. */
    static Optional<Lost> fromOffset(int partition, long requested, Retained retained) {
        if (requested >= retained.beginningOffset()) {
            return Optional.empty();
        }
        return Optional.of(new Lost(partition, requested, null, retained.firstRetainedOffset(), retained.firstAt()));
    }

    /**
     * A time only tells which records the client wants, not which ones existed: once records were deleted
     * (beginning past 0), any of them may have been at or after {@code requested} unless the first record
     * still held is older than it. An emptied partition is a gap too: nothing says what it lost.
     */
    static Optional<Lost> fromTime(int partition, Instant requested, Retained retained) {
        if (retained.beginningOffset() == 0
                || retained.firstAt() != null && retained.firstAt().isBefore(requested)) {
            return Optional.empty();
        }
        return Optional.of(new Lost(partition, null, requested, retained.firstRetainedOffset(), retained.firstAt()));
    }

    /**
     * The {@code gap} message: which partitions lost what, and {@code lostBefore}, a time every lost event
     * precedes (the latest first retained record, or {@code now} when a partition holds none), so the client
     * knows which span to fetch from the history API.
     */
    static String message(String subscriptionId, LiveStream stream, List<Lost> lost, Instant now) {
        var sorted = new ArrayList<>(lost);
        sorted.sort(Comparator.comparingInt(Lost::partition));
        var partitions = new ArrayList<Map<String, Object>>();
        for (var l : sorted) {
            var p = new LinkedHashMap<String, Object>();
            p.put("partition", l.partition());
            if (l.requestedOffset() != null) {
                p.put("requestedOffset", l.requestedOffset());
            }
            if (l.requestedTime() != null) {
                p.put("requestedTime", l.requestedTime().toString());
            }
            p.put("firstRetainedOffset", l.firstRetainedOffset());
            if (l.firstRetainedAt() != null) {
                p.put("firstRetainedAt", l.firstRetainedAt().toString());
            }
            partitions.add(p);
        }
        var lostBefore = lostBefore(sorted, now);
        return ServerMessages.gap(
                subscriptionId,
                stream.streamName(),
                partitions,
                lostBefore,
                "events of " + stream.streamName() + " partition" + (sorted.size() == 1 ? " " : "s ")
                        + sorted.stream()
                                .map(l -> String.valueOf(l.partition()))
                                .collect(Collectors.joining(", "))
                        + " before " + lostBefore + " are no longer in Kafka; GET /" + stream.streamName()
                        + " (the history API) holds them");
    }

    static Instant lostBefore(List<Lost> lost, Instant now) {
        if (lost.stream().map(Lost::firstRetainedAt).anyMatch(Objects::isNull)) {
            return now;
        }
        return lost.stream()
                .map(Lost::firstRetainedAt)
                .max(Comparator.naturalOrder())
                .orElse(now);
    }
}
