package dev.iotpipeline.decoder.access;

import dev.iotpipeline.web.security.Access;
import dev.iotpipeline.web.security.ServiceRoutes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * Decoder's routes: dashboards may read device types; changing them, trying payloads on them (which runs scripts)
 * or re-driving dead letters is for admins.
 */
@Configuration(proxyBeanMethods = false)
class DecoderRoutes {

    @Bean
    ServiceRoutes routes() {
        return routes -> routes.requestMatchers(HttpMethod.GET, "/device-types", "/device-types/**", "/measurements")
                .access(Access.reader())
                .requestMatchers(HttpMethod.POST, "/device-types/*/test")
                .access(Access.admin())
                .requestMatchers("/device-types/**", "/dead-letters/**")
                .access(Access.admin());
    }
}
