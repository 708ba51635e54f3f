package dev.iotpipeline.ingest.auth;

import dev.iotpipeline.ingest.IngestProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class AuthConfig implements WebMvcConfigurer {

    private final DeviceKeys keys;

    AuthConfig(IngestProperties properties) {
        this.keys = new DeviceKeys(properties.apiKeys());
    }

    @Bean
    DeviceKeys deviceKeys() {
        return keys;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new DeviceAuthInterceptor(keys)).addPathPatterns("/sensor-data/**");
    }
}
