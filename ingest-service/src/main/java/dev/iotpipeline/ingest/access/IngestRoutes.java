package dev.iotpipeline.ingest.access;

import dev.iotpipeline.web.security.Access;
import dev.iotpipeline.web.security.Credential.Role;
import dev.iotpipeline.web.security.ServiceRoutes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Ingest's routes: devices post to the channels their key is bound to; the API description is open. */
@Configuration(proxyBeanMethods = false)
class IngestRoutes {

    @Bean
    ServiceRoutes routes() {
        return routes -> routes.requestMatchers("/sensor-data/{channel}/**")
                .access(Access.deviceOfChannel("channel"))
                .requestMatchers("/bench/**")
                .access(Access.roles(Role.DEVICE))
                .requestMatchers("/v3/api-docs", "/v3/api-docs/**")
                .permitAll();
    }
}
