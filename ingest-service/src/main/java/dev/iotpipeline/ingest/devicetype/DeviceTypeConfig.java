package dev.iotpipeline.ingest.devicetype;

import java.time.Duration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DeviceTypeConfig {

    @Bean
    DeviceTypeCatalog deviceTypeCatalog(KafkaProperties kafka) throws InterruptedException {
        return new DeviceTypeCatalog(String.join(",", kafka.getBootstrapServers()), Duration.ofSeconds(30));
    }
}
