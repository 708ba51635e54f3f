package dev.iotpipeline.notify.live.session;

import dev.iotpipeline.notify.NotifyProperties;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/** The open WebSocket sessions of this instance: one sender each, a few per credential, closed when idle. */
public final class Sessions {

    public static final CloseStatus IDLE = new CloseStatus(4408, "idle timeout");
    public static final CloseStatus TOO_MANY_CONNECTIONS =
            CloseStatus.POLICY_VIOLATION.withReason("too many connections for this credential");
    private static final String COUNTED_ATTRIBUTE = "counted-credential";
    private static final Logger log = LoggerFactory.getLogger(Sessions.class);

    private final NotifyProperties.WebSocket limits;
    private final Executor senders;
    private final LiveMetrics metrics;
    private final Map<String, SessionSender> open = new ConcurrentHashMap<>();
    private final Map<String, Integer> connectionsByCredential = new ConcurrentHashMap<>();

    public Sessions(NotifyProperties.WebSocket limits, Executor senders, LiveMetrics metrics) {
        this.limits = limits;
        this.senders = senders;
        this.metrics = metrics;
        metrics.watchDeepestQueue(this::deepestQueue);
    }

    /**
     * Gives a new session its sender, or closes it (1008) when its credential already holds the most
     * connections it may; the slot is counted either way and freed by {@link #closed}.
     */
    public Optional<SessionSender> open(WebSocketSession session, String credentialId) throws IOException {
        int count = connectionsByCredential.merge(credentialId, 1, Integer::sum);
        session.getAttributes().put(COUNTED_ATTRIBUTE, credentialId);
        if (count > limits.maxConnectionsPerCredential()) {
            metrics.dropped("too-many-connections");
            session.close(TOO_MANY_CONNECTIONS);
            return Optional.empty();
        }
        var sender =
                new SessionSender(session, senders, limits.maxQueuedMessages(), limits.slowClientCloseAfter(), metrics);
        open.put(session.getId(), sender);
        metrics.sessionOpened();
        return Optional.of(sender);
    }

    /** The session's sender; null when it was refused or is closed. */
    public SessionSender sender(String sessionId) {
        return open.get(sessionId);
    }

    public void closed(WebSocketSession session) {
        if (session.getAttributes().remove(COUNTED_ATTRIBUTE) instanceof String id) {
            connectionsByCredential.computeIfPresent(id, (key, count) -> count > 1 ? count - 1 : null);
        }
        var sender = open.remove(session.getId());
        if (sender != null) {
            sender.stop();
            metrics.sessionClosed();
        }
    }

    /**
     * Pings every session and closes those the server has not heard from (no message, no pong) within the
     * idle timeout; called every heartbeat interval.
     */
    public void heartbeat() {
        for (var session : open.entrySet()) {
            var sender = session.getValue();
            // One session that fails here must not leave the others unpinged, nor end the heartbeat's schedule,
            // which a scheduled executor does for good on the first exception.
            try {
                if (sender.silentFor().compareTo(limits.idleTimeout()) > 0) {
                    metrics.dropped("idle-closed");
                    sender.close(IDLE);
                } else {
                    sender.ping();
                }
            } catch (RuntimeException e) {
                log.warn("Heartbeat of WebSocket session {} failed: {}", session.getKey(), e.toString());
            }
        }
    }

    int deepestQueue() {
        return open.values().stream().mapToInt(SessionSender::queued).max().orElse(0);
    }
}
