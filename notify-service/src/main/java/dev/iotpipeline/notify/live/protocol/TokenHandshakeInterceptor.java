package dev.iotpipeline.notify.live.protocol;

import dev.iotpipeline.web.security.Credential;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.security.core.Authentication;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * Hands the credential the shared security chain authenticated (header, or the {@code bearer} subprotocol for
 * browsers) to the session, whose subscriptions it scopes to the credential's channels.
 */
public class TokenHandshakeInterceptor implements HandshakeInterceptor {

    @Override
    public boolean beforeHandshake(
            ServerHttpRequest request,
            ServerHttpResponse response,
            WebSocketHandler handler,
            Map<String, Object> attributes) {
        if (request.getPrincipal() instanceof Authentication authentication
                && authentication.getPrincipal() instanceof Credential credential) {
            attributes.put(DashboardSocketHandler.CREDENTIAL_ATTRIBUTE, credential);
            return true;
        }
        // Unreachable behind the security chain, which answers 401 first; kept so the handler never sees null.
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        return false;
    }

    @Override
    public void afterHandshake(
            ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler, Exception exception) {}
}
