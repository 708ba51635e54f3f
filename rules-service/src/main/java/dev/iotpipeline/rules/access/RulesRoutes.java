package dev.iotpipeline.rules.access;

import dev.iotpipeline.web.security.Access;
import dev.iotpipeline.web.security.ServiceRoutes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/** Rules' routes: dashboards may read rules; creating, replacing or deleting one is for admins. */
@Configuration(proxyBeanMethods = false)
class RulesRoutes {

    @Bean
    ServiceRoutes routes() {
        return routes -> routes.requestMatchers(HttpMethod.GET, "/rules", "/rules/**")
                .access(Access.reader())
                .requestMatchers("/rules", "/rules/**")
                .access(Access.admin());
    }
}
