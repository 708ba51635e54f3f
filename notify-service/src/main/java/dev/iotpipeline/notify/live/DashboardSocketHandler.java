package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.security.BearerSecurity;
import dev.iotpipeline.web.security.Credential;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.PongMessage;
import org.springframework.web.socket.SubProtocolCapable;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/**
 * The {@code /ws} protocol. Every session writes through its own {@link SessionSender}: a bounded queue
 * drained on a virtual thread, dropping its oldest messages when the client cannot keep up, so a slow
 * client only ever loses its own messages.
 */
class DashboardSocketHandler extends TextWebSocketHandler implements SubProtocolCapable {

    static final String CREDENTIAL_ATTRIBUTE = "credential";
    private static final String COUNTED_ATTRIBUTE = "counted-credential";
    static final String SUBPROTOCOL = BearerSecurity.WEBSOCKET_SUBPROTOCOL;
    static final CloseStatus IDLE = new CloseStatus(4408, "idle timeout");
    static final CloseStatus TOO_MANY_CONNECTIONS = CloseStatus.POLICY_VIOLATION
            .withReason("too many connections for this credential");
    private static final Logger log = LoggerFactory.getLogger(DashboardSocketHandler.class);
    // Strict, unlike event reading: a misspelt filter field must be an error, not a filter that matches all.
    private static final ObjectReader MESSAGES = EventJson.mapper().readerFor(ClientMessage.class)
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final SubscriptionRegistry registry;
    private final NotifyProperties.WebSocket limits;
    private final LiveMetrics metrics;
    private final Executor senders;
    private final Replay replay;
    private final Map<LiveStream, DeliveryLog> logs;
    private final Map<String, SessionSender> sessions = new ConcurrentHashMap<>();
    private final Map<String, Integer> connectionsByCredential = new ConcurrentHashMap<>();

    DashboardSocketHandler(SubscriptionRegistry registry, NotifyProperties.WebSocket limits, LiveMetrics metrics,
            Executor senders, Replay replay, Map<LiveStream, DeliveryLog> logs) {
        this.registry = registry;
        this.limits = limits;
        this.metrics = metrics;
        this.senders = senders;
        this.replay = replay;
        this.logs = logs;
    }

    @Override
    public List<String> getSubProtocols() {
        return List.of(SUBPROTOCOL);
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) throws java.io.IOException {
        var credential = credential(session);
        int open = connectionsByCredential.merge(credential.id(), 1, Integer::sum);
        session.getAttributes().put(COUNTED_ATTRIBUTE, credential.id());
        if (open > limits.maxConnectionsPerCredential()) {
            metrics.dropped("too-many-connections");
            session.close(TOO_MANY_CONNECTIONS);
            return;
        }
        sessions.put(session.getId(), new SessionSender(session, senders, limits.maxQueuedMessages(),
                limits.slowClientCloseAfter(), metrics));
        metrics.sessionOpened();
    }

    private static Credential credential(WebSocketSession session) {
        return (Credential) session.getAttributes().get(CREDENTIAL_ATTRIBUTE);
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage text) {
        var sender = sessions.get(session.getId());
        if (sender == null) {
            return;
        }
        sender.heard();
        var parsed = parse(text.getPayload());
        if (parsed.rejection() != null) {
            error(sender, parsed.rejection().id(), parsed.rejection().code(), parsed.rejection().detail());
            return;
        }
        var message = parsed.message();
        switch (message.type() == null ? "" : message.type()) {
            case "subscribe" -> subscribe(session, sender, message);
            case "unsubscribe" -> {
                if (registry.remove(session.getId(), message.id())) {
                    sender.reply(reply("unsubscribed", message.id()));
                } else {
                    error(sender, message.id(), "unknown-subscription", "No subscription '" + message.id() + "'");
                }
            }
            case "ping" -> sender.reply(reply("pong", message.id()));
            default -> error(sender, message.id(), "unknown-type",
                    "type must be subscribe, unsubscribe or ping, not '" + message.type() + "'");
        }
    }

    /** What a text frame says: the client's message, or else the error to answer it with. */
    record Parsed(ClientMessage message, Rejection rejection) {
    }

    /** An error answer: the message id when one could be read, a stable code, and what is wrong. */
    record Rejection(String id, String code, String detail) {
    }

    /** Reads a text frame; never throws, whatever the frame holds. */
    static Parsed parse(String payload) {
        JsonNode tree;
        try {
            tree = EventJson.mapper().readTree(payload);
        } catch (JacksonException e) {
            return new Parsed(null, new Rejection(null, "malformed-json", "Message is not valid JSON: "
                    + e.getOriginalMessage()));
        }
        try {
            ClientMessage message = MESSAGES.readValue(tree);
            if (message == null) {
                // An empty frame or JSON null reads as no message at all.
                return new Parsed(null, new Rejection(null, "bad-message", "Message must be a JSON object"));
            }
            return new Parsed(message, null);
        } catch (DatabindException e) {
            var path = e.getPath();
            boolean inFilter = !path.isEmpty() && "filter".equals(path.getFirst().getPropertyName());
            return new Parsed(null, new Rejection(tree.path("id").isString() ? tree.path("id").asString() : null,
                    inFilter ? "bad-filter" : "bad-message", e.getOriginalMessage()));
        }
    }

    private void subscribe(WebSocketSession session, SessionSender sender, ClientMessage message) {
        if (message.id() == null || message.id().isBlank()) {
            error(sender, null, "missing-id", "subscribe needs an id");
            return;
        }
        var stream = LiveStream.byName(message.stream());
        if (stream.isEmpty()) {
            error(sender, message.id(), "unknown-stream", "stream must be data-units or alarms, not '"
                    + message.stream() + "'");
            return;
        }
        Replay.From from = null;
        if (message.since() != null) {
            try {
                from = Replay.resolve(message.since(), logs.get(stream.get()));
            } catch (IllegalArgumentException e) {
                error(sender, message.id(), "bad-since", e.getMessage());
                return;
            }
        }
        var filter = message.filter() == null ? SubscriptionRegistry.Filter.ANY : message.filter();
        var scope = credential(session);
        if (filter.channel() != null && !scope.allows(filter.channel())) {
            error(sender, message.id(), "channel-forbidden", "The token may not read channel '" + filter.channel() + "'");
            return;
        }
        if (!registry.holds(session.getId(), message.id())
                && registry.countFor(session.getId()) >= limits.maxSubscriptionsPerConnection()) {
            error(sender, message.id(), "too-many-subscriptions", "A connection may hold at most "
                    + limits.maxSubscriptionsPerConnection() + " subscriptions; unsubscribe one first");
            return;
        }
        var subscription = new SubscriptionRegistry.Subscription(session.getId(), message.id(), stream.get(), filter,
                scope.channels(), sender, from == null ? null : new Seam(limits.maxReplayBuffer()));
        registry.add(subscription);
        sender.reply(reply("subscribed", message.id()));
        if (from != null) {
            var start = from;
            senders.execute(() -> replay(subscription, start));
        }
    }

    private void replay(SubscriptionRegistry.Subscription subscription, Replay.From from) {
        try {
            replay.run(subscription, from);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Seam.Overflow overflow) {
            // Live traffic outran the replay; the client resumes from what it got.
            metrics.dropped("replay-overflow");
            subscription.sink.close(SessionSender.TOO_SLOW);
        } catch (RuntimeException e) {
            log.warn("Replay for subscription {} failed: {}", subscription.id, e.toString());
            registry.remove(subscription);
            error(subscription.sink, subscription.id, "replay-failed", "Replay failed, subscribe again: " + e.getMessage());
        }
    }

    @Override
    protected void handlePongMessage(WebSocketSession session, PongMessage message) {
        var sender = sessions.get(session.getId());
        if (sender != null) {
            sender.heard();
        }
    }

    /**
     * Pings every session and closes those the server has not heard from (no message, no pong) within the
     * idle timeout; called every heartbeat interval.
     */
    void heartbeat() {
        for (var sender : sessions.values()) {
            if (sender.silentFor().compareTo(limits.idleTimeout()) > 0) {
                metrics.dropped("idle-closed");
                sender.close(IDLE);
            } else {
                sender.ping();
            }
        }
    }

    int deepestQueue() {
        return sessions.values().stream().mapToInt(SessionSender::queued).max().orElse(0);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        if (session.getAttributes().remove(COUNTED_ATTRIBUTE) instanceof String id) {
            connectionsByCredential.computeIfPresent(id, (key, open) -> open > 1 ? open - 1 : null);
        }
        var sender = sessions.remove(session.getId());
        if (sender != null) {
            sender.stop();
            metrics.sessionClosed();
        }
        registry.removeSession(session.getId());
    }

    private void error(SessionSender sender, String id, String code, String detail) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "error");
        if (id != null) {
            body.put("id", id);
        }
        body.put("code", code);
        body.put("message", detail);
        sender.reply(EventJson.mapper().writeValueAsString(body));
    }

    private static String reply(String type, String id) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", type);
        if (id != null) {
            body.put("id", id);
        }
        return EventJson.mapper().writeValueAsString(body);
    }
}
