package dev.iotpipeline.notify.access;

import dev.iotpipeline.web.security.Access;
import dev.iotpipeline.web.security.ServiceRoutes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * Notify's routes: the dashboard page itself is open (it asks for a token), history, alarms, acknowledgement
 * and the live feed need a dashboard or admin token, scoped to its channels by the handlers.
 */
@Configuration(proxyBeanMethods = false)
class NotifyRoutes {

    @Bean
    ServiceRoutes routes() {
        return routes -> routes.requestMatchers(
                        HttpMethod.GET, "/", "/index.html", "/dashboard.js", "/dashboard.css", "/favicon.ico")
                .permitAll()
                .requestMatchers(
                        HttpMethod.GET,
                        "/data-units",
                        "/data-units/**",
                        "/devices",
                        "/devices/**",
                        "/alarms",
                        "/alarms/**",
                        "/ws")
                .access(Access.reader())
                .requestMatchers(HttpMethod.POST, "/alarms/*/acknowledge")
                .access(Access.reader());
    }
}
