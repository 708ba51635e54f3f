package dev.iotpipeline.ingest.auth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/** Authorizes the device key before the body is read, so an unauthenticated client learns nothing about it. */
class DeviceAuthInterceptor implements HandlerInterceptor {

    private final DeviceKeys keys;

    DeviceAuthInterceptor(DeviceKeys keys) {
        this.keys = keys;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        @SuppressWarnings("unchecked")
        var vars = (Map<String, String>) request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        var channel = vars == null ? null : vars.get("channel");
        keys.authorize(channel, request.getHeader(HttpHeaders.AUTHORIZATION));
        return true;
    }
}
