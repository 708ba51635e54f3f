package dev.iotpipeline.notify.live.session;

import dev.iotpipeline.notify.live.wire.ServerMessages;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.PingMessage;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * The one writer of a WebSocket session. Messages queue here, bounded; a drain task of its own (a virtual
 * thread) writes them, so a client that reads slowly blocks only its own drain, never the fan-out thread or
 * other sessions. When the queue is full the oldest message is dropped and counted, the client is told how
 * many it lost before the next message it gets, and a client that stays that far behind is closed with
 * 1013 (try again later).
 */
public final class SessionSender {

    /** What happens to messages, for metrics. */
    public interface Listener {
        void sent(String stream, Instant receivedAt);

        void dropped(String cause);

        void queued(int depth);

        /** A data message was written after waiting {@code nanos} in the session's queue (and being written). */
        default void written(long nanos) {}
    }

    public static final CloseStatus TOO_SLOW = new CloseStatus(1013, "client too slow; reconnect with since");
    private static final Logger log = LoggerFactory.getLogger(SessionSender.class);
    private static final PingMessage PING = new PingMessage(ByteBuffer.allocate(0));

    private record Outgoing(WebSocketMessage<?> message, String stream, Instant receivedAt, long queuedNanos) {

        Outgoing(WebSocketMessage<?> message, String stream, Instant receivedAt) {
            this(message, stream, receivedAt, System.nanoTime());
        }
    }

    private final WebSocketSession session;
    private final Executor executor;
    private final int maxQueued;
    private final Duration closeAfter;
    private final Listener listener;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    private boolean draining;
    private boolean closed;
    private long droppedSinceNotice;
    private Instant behindSince;
    private volatile long lastHeardNanos = System.nanoTime();

    public SessionSender(
            WebSocketSession session, Executor executor, int maxQueued, Duration closeAfter, Listener listener) {
        this.session = session;
        this.executor = executor;
        this.maxQueued = maxQueued;
        this.closeAfter = closeAfter;
        this.listener = listener;
    }

    /** Queues a reply to the client (subscribed, error, pong). */
    public void reply(String text) {
        send(text, null, null);
    }

    /** Queues an event of {@code stream}; {@code receivedAt} is the uplink's arrival, for end-to-end latency. */
    public void send(String text, String stream, Instant receivedAt) {
        enqueue(new Outgoing(new TextMessage(text), stream, receivedAt));
    }

    /** Queues a heartbeat ping frame; browsers and WebSocket libraries answer it with a pong on their own. */
    void ping() {
        enqueue(new Outgoing(PING, null, null));
    }

    /**
     * Queues an event once there is room, without dropping anything: for replays, whose reader can wait for
     * the client while live events keep flowing to everyone else. Returns false once the session is closed.
     */
    public boolean sendWhenRoom(String text, String stream, Instant receivedAt) throws InterruptedException {
        lock.lock();
        try {
            while (!closed && queue.size() >= maxQueued) {
                room.await(1, TimeUnit.SECONDS);
            }
            if (closed) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        enqueue(new Outgoing(new TextMessage(text), stream, receivedAt));
        return true;
    }

    private void enqueue(Outgoing outgoing) {
        boolean startDrain = false;
        boolean tooSlow = false;
        int depth;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (queue.size() >= maxQueued) {
                queue.pollFirst();
                droppedSinceNotice++;
                listener.dropped("buffer-full");
                var now = Instant.now();
                if (behindSince == null) {
                    behindSince = now;
                } else if (Duration.between(behindSince, now).compareTo(closeAfter) > 0) {
                    closed = true;
                    tooSlow = true;
                    queue.clear();
                    room.signalAll();
                }
            }
            if (!closed) {
                queue.addLast(outgoing);
                if (!draining) {
                    draining = true;
                    startDrain = true;
                }
            }
            depth = queue.size();
        } finally {
            lock.unlock();
        }
        listener.queued(depth);
        if (tooSlow) {
            listener.dropped("too-slow-closed");
            executor.execute(() -> close(TOO_SLOW));
        } else if (startDrain) {
            executor.execute(this::drain);
        }
    }

    /** Marks that the client was heard from (any message or pong), for the idle timeout. */
    public void heard() {
        lastHeardNanos = System.nanoTime();
    }

    Duration silentFor() {
        return Duration.ofNanos(System.nanoTime() - lastHeardNanos);
    }

    boolean isOpen() {
        lock.lock();
        try {
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void drain() {
        while (true) {
            Outgoing next;
            long dropped;
            lock.lock();
            try {
                next = queue.pollFirst();
                if (next == null || closed) {
                    draining = false;
                    return;
                }
                room.signalAll();
                dropped = droppedSinceNotice;
                droppedSinceNotice = 0;
                if (queue.isEmpty()) {
                    behindSince = null;
                }
            } finally {
                lock.unlock();
            }
            try {
                if (dropped > 0) {
                    session.sendMessage(new TextMessage(ServerMessages.dropped(dropped)));
                }
                session.sendMessage(next.message());
                if (next.stream() != null) {
                    listener.sent(next.stream(), next.receivedAt());
                    listener.written(System.nanoTime() - next.queuedNanos());
                }
            } catch (IOException | IllegalStateException e) {
                log.debug("Send to {} failed: {}", session.getId(), e.toString());
                stop();
                listener.dropped("send-failed");
                return;
            }
        }
    }

    /** Stops sending and closes the connection with {@code status}, from any thread. */
    public void close(CloseStatus status) {
        stop();
        try {
            session.close(status);
        } catch (IOException e) {
            log.debug("Closing {} failed: {}", session.getId(), e.toString());
        }
    }

    void stop() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            draining = false;
            room.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
