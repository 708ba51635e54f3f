package dev.iotpipeline.ingest.health;

import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.ingest.devicetype.DeviceTypeCatalog;
import java.time.Duration;
import java.util.HashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

@Configuration(proxyBeanMethods = false)
class HealthConfig {

    /** Registered as the "kafka" health contributor, part of the readiness group. */
    @Bean
    KafkaHealth kafkaHealthIndicator(KafkaAdmin kafkaAdmin, KafkaCircuit circuit, DeviceTypeCatalog catalog) {
        // KafkaAdmin's configuration carries the connection details and SSL bundle, not only the properties
        var props = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "ingest-health");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
        return new KafkaHealth(Admin.create(props), circuit, catalog, Duration.ofSeconds(2));
    }
}
