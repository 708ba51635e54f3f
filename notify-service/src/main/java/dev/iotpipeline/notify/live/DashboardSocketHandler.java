package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.auth.DashboardTokens;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.SubProtocolCapable;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import tools.jackson.core.JacksonException;

/**
 * The {@code /ws} protocol. Every session is wrapped in a bounded send buffer that drops its oldest
 * messages when the client cannot keep up, so a slow client only ever loses its own messages.
 */
class DashboardSocketHandler extends TextWebSocketHandler implements SubProtocolCapable {

    static final String SCOPE_ATTRIBUTE = "dashboard-scope";
    static final String SUBPROTOCOL = "bearer";

    private static final Logger log = LoggerFactory.getLogger(DashboardSocketHandler.class);

    private final SubscriptionRegistry registry;
    private final NotifyProperties.WebSocket limits;
    private final Map<String, WebSocketSession> sessions = new java.util.concurrent.ConcurrentHashMap<>();

    DashboardSocketHandler(SubscriptionRegistry registry, NotifyProperties.WebSocket limits) {
        this.registry = registry;
        this.limits = limits;
    }

    @Override
    public List<String> getSubProtocols() {
        return List.of(SUBPROTOCOL);
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        sessions.put(session.getId(), new ConcurrentWebSocketSessionDecorator(session,
                (int) limits.sendTimeLimit().toMillis(), limits.sendBufferBytes(),
                ConcurrentWebSocketSessionDecorator.OverflowStrategy.DROP));
    }

    @Override
    protected void handleTextMessage(WebSocketSession raw, TextMessage text) {
        var session = sessions.getOrDefault(raw.getId(), raw);
        ClientMessage message;
        try {
            message = EventJson.mapper().readValue(text.getPayload(), ClientMessage.class);
        } catch (JacksonException e) {
            error(session, null, "malformed-json", "Message is not valid JSON: " + e.getOriginalMessage());
            return;
        }
        switch (message.type() == null ? "" : message.type()) {
            case "subscribe" -> subscribe(session, message);
            case "unsubscribe" -> {
                if (registry.remove(session.getId(), message.id())) {
                    send(session, reply("unsubscribed", message.id()));
                } else {
                    error(session, message.id(), "unknown-subscription", "No subscription '" + message.id() + "'");
                }
            }
            case "ping" -> send(session, reply("pong", message.id()));
            default -> error(session, message.id(), "unknown-type",
                    "type must be subscribe, unsubscribe or ping, not '" + message.type() + "'");
        }
    }

    private void subscribe(WebSocketSession session, ClientMessage message) {
        if (message.id() == null || message.id().isBlank()) {
            error(session, null, "missing-id", "subscribe needs an id");
            return;
        }
        var stream = LiveStream.byName(message.stream());
        if (stream.isEmpty()) {
            error(session, message.id(), "unknown-stream", "stream must be data-units or alarms, not '"
                    + message.stream() + "'");
            return;
        }
        if (message.since() != null) {
            error(session, message.id(), "unsupported", "since is not supported yet");
            return;
        }
        var filter = message.filter() == null ? SubscriptionRegistry.Filter.ANY : message.filter();
        var scope = (DashboardTokens.Scope) session.getAttributes().get(SCOPE_ATTRIBUTE);
        if (filter.channel() != null && !scope.allows(filter.channel())) {
            error(session, message.id(), "channel-forbidden", "The token may not read channel '" + filter.channel() + "'");
            return;
        }
        registry.add(new SubscriptionRegistry.Subscription(session.getId(), message.id(), stream.get(), filter,
                scope.channels(), json -> send(session, json)));
        send(session, reply("subscribed", message.id()));
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        sessions.remove(session.getId());
        registry.removeSession(session.getId());
    }

    private void error(WebSocketSession session, String id, String code, String detail) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "error");
        if (id != null) {
            body.put("id", id);
        }
        body.put("code", code);
        body.put("message", detail);
        send(session, EventJson.mapper().writeValueAsString(body));
    }

    private static String reply(String type, String id) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", type);
        if (id != null) {
            body.put("id", id);
        }
        return EventJson.mapper().writeValueAsString(body);
    }

    private static void send(WebSocketSession session, String json) {
        try {
            session.sendMessage(new TextMessage(json));
        } catch (IOException | IllegalStateException e) {
            log.debug("Send to {} failed: {}", session.getId(), e.toString());
        }
    }
}
