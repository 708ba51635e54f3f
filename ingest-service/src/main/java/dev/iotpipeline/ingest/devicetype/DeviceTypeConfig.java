package dev.iotpipeline.ingest.devicetype;

import java.time.Duration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DeviceTypeConfig {

    @Bean
    DeviceTypeCatalog deviceTypeCatalog(ConsumerFactory<?, ?> consumers) throws InterruptedException {
        return new DeviceTypeCatalog(consumers.getConfigurationProperties(), Duration.ofSeconds(30));
    }
}
