package dev.iotpipeline.notify.auth;

import dev.iotpipeline.notify.NotifyProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class AuthConfig {

    @Bean
    DashboardTokens dashboardTokens(NotifyProperties properties) {
        return new DashboardTokens(properties.tokens());
    }
}
