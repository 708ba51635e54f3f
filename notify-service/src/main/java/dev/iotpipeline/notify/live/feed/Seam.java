package dev.iotpipeline.notify.live.feed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a {@code since} replay meets the live stream. Live events wait here while the replay runs; the replay
 * covers every partition up to end offsets read after the subscription went live, so together they leave no
 * gap, and an event is sent live only when its offset lies beyond what the replay covered, so nothing twice.
 */
public final class Seam {

    public record Pending(LiveEvent event, String text) {}

    private final ReentrantLock lock = new ReentrantLock();
    private final int maxPending;
    private final Map<Integer, Long> covered = new HashMap<>();
    private List<Pending> pending = new ArrayList<>();
    private boolean overflowed;

    public Seam(int maxPending) {
        this.maxPending = maxPending;
    }

    /** Called by the live feed: true when the event is to be sent now, false when it waits or was covered. */
    boolean passLive(LiveEvent event, String text) {
        lock.lock();
        try {
            if (pending != null) {
                if (pending.size() < maxPending) {
                    pending.add(new Pending(event, text));
                } else {
                    overflowed = true;
                }
                return false;
            }
            return isNew(event);
        } finally {
            lock.unlock();
        }
    }

    /** The replay has handled every offset below {@code ends} (exclusive) in each partition. */
    public void replayedUpTo(Map<Integer, Long> ends) {
        lock.lock();
        try {
            ends.forEach((partition, end) -> covered.merge(partition, end - 1, Math::max));
        } finally {
            lock.unlock();
        }
    }

    /**
     * The live events that waited and are not covered by the replay, in arrival order; once none are left the
     * seam opens, this returns empty and later events pass straight through {@link #passLive}.
     */
    public Optional<List<Pending>> takeWaiting() throws Overflow {
        lock.lock();
        try {
            if (overflowed) {
                throw new Overflow(maxPending);
            }
            if (pending.isEmpty()) {
                pending = null;
                return Optional.empty();
            }
            var batch = pending.stream().filter(p -> isNew(p.event())).toList();
            for (var p : batch) {
                covered.put(p.event().partition(), p.event().offset());
            }
            pending = new ArrayList<>();
            return Optional.of(batch);
        } finally {
            lock.unlock();
        }
    }

    private boolean isNew(LiveEvent event) {
        return event.offset() > covered.getOrDefault(event.partition(), -1L);
    }

    /** Live traffic outran the replay: more live events arrived meanwhile than the seam may hold. */
    public static final class Overflow extends Exception {

        Overflow(int maxPending) {
            super("more than " + maxPending + " live events arrived during the replay", null, false, false);
        }
    }
}
