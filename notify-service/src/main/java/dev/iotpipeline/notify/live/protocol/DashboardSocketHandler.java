package dev.iotpipeline.notify.live.protocol;

import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.live.feed.DeliveryLogs;
import dev.iotpipeline.notify.live.feed.LiveStream;
import dev.iotpipeline.notify.live.feed.Seam;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.replay.Replay;
import dev.iotpipeline.notify.live.session.LiveMetrics;
import dev.iotpipeline.notify.live.session.SessionSender;
import dev.iotpipeline.notify.live.session.Sessions;
import dev.iotpipeline.notify.live.wire.ServerMessages;
import dev.iotpipeline.web.security.BearerSecurity;
import dev.iotpipeline.web.security.Credential;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.PongMessage;
import org.springframework.web.socket.SubProtocolCapable;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * The {@code /ws} protocol: subscribe (optionally {@code since}, which starts a replay), unsubscribe and ping,
 * answered through the session's {@link SessionSender}, so a slow client only ever loses its own messages.
 */
public class DashboardSocketHandler extends TextWebSocketHandler implements SubProtocolCapable {

    public static final String CREDENTIAL_ATTRIBUTE = "credential";
    private static final Logger log = LoggerFactory.getLogger(DashboardSocketHandler.class);

    private final SubscriptionRegistry registry;
    private final Sessions sessions;
    private final NotifyProperties.WebSocket limits;
    private final LiveMetrics metrics;
    private final Executor replays;
    private final Replay replay;
    private final DeliveryLogs logs;

    public DashboardSocketHandler(
            SubscriptionRegistry registry,
            Sessions sessions,
            NotifyProperties.WebSocket limits,
            LiveMetrics metrics,
            Executor replays,
            Replay replay,
            DeliveryLogs logs) {
        this.registry = registry;
        this.sessions = sessions;
        this.limits = limits;
        this.metrics = metrics;
        this.replays = replays;
        this.replay = replay;
        this.logs = logs;
    }

    @Override
    public List<String> getSubProtocols() {
        return List.of(BearerSecurity.WEBSOCKET_SUBPROTOCOL);
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) throws IOException {
        sessions.open(session, credentialOf(session).id());
    }

    /** The credential the session's handshake was authenticated with. */
    public static Credential credentialOf(WebSocketSession session) {
        return (Credential) session.getAttributes().get(CREDENTIAL_ATTRIBUTE);
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage text) {
        var sender = sessions.sender(session.getId());
        if (sender == null) {
            return;
        }
        sender.heard();
        var parsed = ClientMessages.parse(text.getPayload());
        if (parsed.rejection() != null) {
            var rejection = parsed.rejection();
            sender.reply(ServerMessages.error(rejection.id(), rejection.code(), rejection.detail()));
            return;
        }
        var message = parsed.message();
        switch (message.type() == null ? "" : message.type()) {
            case "subscribe" -> subscribe(session, sender, message);
            case "unsubscribe" -> {
                if (registry.remove(session.getId(), message.id())) {
                    sender.reply(ServerMessages.reply("unsubscribed", message.id()));
                } else {
                    sender.reply(ServerMessages.error(
                            message.id(), "unknown-subscription", "No subscription '" + message.id() + "'"));
                }
            }
            case "ping" -> sender.reply(ServerMessages.reply("pong", message.id()));
            default ->
                sender.reply(ServerMessages.error(
                        message.id(),
                        "unknown-type",
                        "type must be subscribe, unsubscribe or ping, not '" + message.type() + "'"));
        }
    }

    private void subscribe(WebSocketSession session, SessionSender sender, ClientMessage message) {
        if (message.id() == null || message.id().isBlank()) {
            sender.reply(ServerMessages.error(null, "missing-id", "subscribe needs an id"));
            return;
        }
        var stream = LiveStream.byName(message.stream());
        if (stream.isEmpty()) {
            sender.reply(ServerMessages.error(
                    message.id(),
                    "unknown-stream",
                    "stream must be data-units or alarms, not '" + message.stream() + "'"));
            return;
        }
        Replay.From from = null;
        if (message.since() != null) {
            try {
                from = Replay.resolve(message.since(), logs.of(stream.get()));
            } catch (IllegalArgumentException e) {
                sender.reply(ServerMessages.error(message.id(), "bad-since", e.getMessage()));
                return;
            }
        }
        var filter = message.filter() == null ? SubscriptionRegistry.Filter.ANY : message.filter();
        var scope = credentialOf(session);
        if (filter.channel() != null && !scope.allows(filter.channel())) {
            sender.reply(ServerMessages.error(
                    message.id(), "channel-forbidden", "The token may not read channel '" + filter.channel() + "'"));
            return;
        }
        if (!registry.holds(session.getId(), message.id())
                && registry.countFor(session.getId()) >= limits.maxSubscriptionsPerConnection()) {
            sender.reply(ServerMessages.error(
                    message.id(),
                    "too-many-subscriptions",
                    "A connection may hold at most " + limits.maxSubscriptionsPerConnection()
                            + " subscriptions; unsubscribe one first"));
            return;
        }
        var subscription = new SubscriptionRegistry.Subscription(
                session.getId(),
                message.id(),
                stream.get(),
                filter,
                scope.channels(),
                sender,
                from == null ? null : new Seam(limits.maxReplayBuffer()));
        registry.add(subscription);
        sender.reply(ServerMessages.reply("subscribed", message.id()));
        if (from != null) {
            var start = from;
            replays.execute(() -> replay(subscription, start));
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
            subscription.sink().close(SessionSender.TOO_SLOW);
        } catch (RuntimeException e) {
            log.warn("Replay for subscription {} failed: {}", subscription.id(), e.toString());
            registry.remove(subscription);
            subscription
                    .sink()
                    .reply(ServerMessages.error(
                            subscription.id(), "replay-failed", "Replay failed, subscribe again: " + e.getMessage()));
        }
    }

    @Override
    protected void handlePongMessage(WebSocketSession session, PongMessage message) {
        var sender = sessions.sender(session.getId());
        if (sender != null) {
            sender.heard();
        }
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        sessions.closed(session);
        registry.removeSession(session.getId());
    }
}
