package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.auth.DashboardTokens;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.SubProtocolCapable;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import tools.jackson.core.JacksonException;

/**
 * The {@code /ws} protocol. Every session writes through its own {@link SessionSender}: a bounded queue
 * drained on a virtual thread, dropping its oldest messages when the client cannot keep up, so a slow
 * client only ever loses its own messages.
 */
class DashboardSocketHandler extends TextWebSocketHandler implements SubProtocolCapable {

    static final String SCOPE_ATTRIBUTE = "dashboard-scope";
    static final String SUBPROTOCOL = "bearer";

    private final SubscriptionRegistry registry;
    private final NotifyProperties.WebSocket limits;
    private final LiveMetrics metrics;
    private final Executor senders;
    private final Map<String, SessionSender> sessions = new java.util.concurrent.ConcurrentHashMap<>();

    DashboardSocketHandler(SubscriptionRegistry registry, NotifyProperties.WebSocket limits,
            LiveMetrics metrics, Executor senders) {
        this.registry = registry;
        this.limits = limits;
        this.metrics = metrics;
        this.senders = senders;
    }

    @Override
    public List<String> getSubProtocols() {
        return List.of(SUBPROTOCOL);
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        sessions.put(session.getId(), new SessionSender(session, senders, limits.maxQueuedMessages(),
                limits.slowClientCloseAfter(), metrics));
        metrics.sessionOpened();
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage text) {
        var sender = sessions.get(session.getId());
        if (sender == null) {
            return;
        }
        ClientMessage message;
        try {
            message = EventJson.mapper().readValue(text.getPayload(), ClientMessage.class);
        } catch (JacksonException e) {
            error(sender, null, "malformed-json", "Message is not valid JSON: " + e.getOriginalMessage());
            return;
        }
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
        if (message.since() != null) {
            error(sender, message.id(), "unsupported", "since is not supported yet");
            return;
        }
        var filter = message.filter() == null ? SubscriptionRegistry.Filter.ANY : message.filter();
        var scope = (DashboardTokens.Scope) session.getAttributes().get(SCOPE_ATTRIBUTE);
        if (filter.channel() != null && !scope.allows(filter.channel())) {
            error(sender, message.id(), "channel-forbidden", "The token may not read channel '" + filter.channel() + "'");
            return;
        }
        registry.add(new SubscriptionRegistry.Subscription(session.getId(), message.id(), stream.get(), filter,
                scope.channels(), sender));
        sender.reply(reply("subscribed", message.id()));
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
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
