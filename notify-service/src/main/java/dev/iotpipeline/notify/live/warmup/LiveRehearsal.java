package dev.iotpipeline.notify.live.warmup;

import dev.iotpipeline.notify.live.feed.DeliveryLogs;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.protocol.DashboardSocketHandler;
import dev.iotpipeline.web.security.BearerSecurity;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialLookup;
import dev.iotpipeline.web.security.CredentialStore;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.SubProtocolCapable;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * The live warm-up's own dashboard: a token drawn at each start and known only inside this process, valid while the
 * warm-up runs, whose WebSocket sessions are served by a protocol handler of their own (own subscriptions, sessions,
 * delivery log and metrics), so the rehearsal goes through Tomcat, the security chain and the live protocol's code
 * without a user's session, resume position or metric seeing it.
 */
public final class LiveRehearsal implements CredentialLookup {

    private final String secret;
    private final byte[] secretHash;
    private final String channel;
    private final Credential credential;
    private final DashboardSocketHandler handler;
    private final SubscriptionRegistry registry;
    private final DeliveryLogs logs;
    /** Valid only while the warm-up runs: not before it starts, never when it is off. */
    private volatile boolean open;

    LiveRehearsal(DashboardSocketHandler handler, SubscriptionRegistry registry, DeliveryLogs logs) {
        var random = new SecureRandom();
        var bytes = new byte[32];
        random.nextBytes(bytes);
        this.secret = HexFormat.of().formatHex(bytes);
        this.secretHash = CredentialStore.sha256(secret);
        // Its own draw, so that the channel, which a log line may show, says nothing about the secret.
        var suffix = new byte[6];
        random.nextBytes(suffix);
        this.channel = "_warmup-" + HexFormat.of().formatHex(suffix);
        this.credential = new Credential.Dashboard("warmup-" + HexFormat.of().formatHex(suffix), Set.of(channel));
        this.handler = handler;
        this.registry = registry;
        this.logs = logs;
    }

    String secret() {
        return secret;
    }

    /** The one channel the rehearsal's token may read, and its data units' channel. */
    String channel() {
        return channel;
    }

    SubscriptionRegistry registry() {
        return registry;
    }

    DeliveryLogs logs() {
        return logs;
    }

    /** Makes the token valid, as the warm-up starts. */
    void begin() {
        open = true;
    }

    /** Ends the token's validity: from now on it is refused as any unknown secret. */
    void end() {
        open = false;
    }

    @Override
    public Credential find(byte[] sha256) {
        return open && MessageDigest.isEqual(sha256, secretHash) ? credential : null;
    }

    /** Whether {@code request} presents the rehearsal's token (while it is valid), compared in constant time. */
    boolean presentedBy(HttpServletRequest request) {
        if (!open) {
            return false;
        }
        var presented = BearerSecurity.bearerSecret(request.getHeader(HttpHeaders.AUTHORIZATION));
        return presented != null && MessageDigest.isEqual(CredentialStore.sha256(presented), secretHash);
    }

    /** {@code live} for every session, except the rehearsal's own, which go to the rehearsal's handler. */
    public WebSocketHandler routing(DashboardSocketHandler live) {
        return new Routing(live);
    }

    private final class Routing implements WebSocketHandler, SubProtocolCapable {

        private final DashboardSocketHandler live;

        Routing(DashboardSocketHandler live) {
            this.live = live;
        }

        private WebSocketHandler of(WebSocketSession session) {
            return DashboardSocketHandler.credentialOf(session) == credential ? handler : live;
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) throws Exception {
            of(session).afterConnectionEstablished(session);
        }

        @Override
        public void handleMessage(WebSocketSession session, WebSocketMessage<?> message) throws Exception {
            of(session).handleMessage(session, message);
        }

        @Override
        public void handleTransportError(WebSocketSession session, Throwable exception) throws Exception {
            of(session).handleTransportError(session, exception);
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) throws Exception {
            of(session).afterConnectionClosed(session, status);
        }

        @Override
        public boolean supportsPartialMessages() {
            return live.supportsPartialMessages();
        }

        @Override
        public List<String> getSubProtocols() {
            return live.getSubProtocols();
        }
    }
}
