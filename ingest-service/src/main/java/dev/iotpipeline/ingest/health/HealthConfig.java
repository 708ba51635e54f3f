package dev.iotpipeline.ingest.health;

import dev.iotpipeline.ingest.devicetype.DeviceTypeCatalog;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class HealthConfig {

    /** Registered as the "kafka" health contributor, part of the readiness group. */
    @Bean
    KafkaHealth kafkaHealthIndicator(KafkaProperties kafka, DeviceTypeCatalog catalog) {
        var props = kafka.buildAdminProperties();
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
        return new KafkaHealth(Admin.create(props), catalog, Duration.ofSeconds(2));
    }
}
