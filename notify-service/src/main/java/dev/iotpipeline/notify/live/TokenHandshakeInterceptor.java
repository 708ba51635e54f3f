package dev.iotpipeline.notify.live;

import dev.iotpipeline.notify.auth.DashboardTokens;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;

/**
 * Authenticates the upgrade request, keeping the token out of the URL: {@code Authorization: Bearer <token>}
 * for clients that can set headers, or {@code Sec-WebSocket-Protocol: bearer, <token>} for browsers.
 */
class TokenHandshakeInterceptor implements HandshakeInterceptor {

    private final DashboardTokens tokens;

    TokenHandshakeInterceptor(DashboardTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public boolean beforeHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            Map<String, Object> attributes) {
        var token = DashboardTokens.bearer(request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        if (token == null) {
            token = fromSubprotocol(request.getHeaders().get("Sec-WebSocket-Protocol"));
        }
        var scope = tokens.resolve(token);
        if (scope.isEmpty()) {
            response.setStatusCode(HttpStatus.UNAUTHORIZED);
            return false;
        }
        attributes.put(DashboardSocketHandler.SCOPE_ATTRIBUTE, scope.get());
        return true;
    }

    private static String fromSubprotocol(java.util.List<String> headers) {
        if (headers == null) {
            return null;
        }
        var protocols = headers.stream().flatMap(h -> java.util.Arrays.stream(h.split(","))).map(String::trim).toList();
        int marker = protocols.indexOf(DashboardSocketHandler.SUBPROTOCOL);
        return marker >= 0 && marker + 1 < protocols.size() ? protocols.get(marker + 1) : null;
    }

    @Override
    public void afterHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            Exception exception) {
    }
}
