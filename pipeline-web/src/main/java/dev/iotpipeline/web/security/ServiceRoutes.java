package dev.iotpipeline.web.security;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * The one piece of security a service writes itself: which role may call which of its routes. The shared
 * chain adds the rest (probes open, other actuator endpoints and anything unlisted admin-only).
 */
@FunctionalInterface
public interface ServiceRoutes {

    void authorize(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry routes);
}
