package dev.iotpipeline.ingest.circuit;

import dev.iotpipeline.ingest.IngestProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

@Configuration(proxyBeanMethods = false)
class CircuitConfig {

    /**
     * The probe's admin client starts from Spring Boot's admin configuration (connection details, TLS, SASL),
     * with timeouts short enough for a probe and reconnects no slower than the probe interval, so a returning
     * broker is seen within one interval.
     */
    @Bean
    KafkaCircuit kafkaCircuit(KafkaAdmin kafkaAdmin, IngestProperties properties, MeterRegistry registry) {
        var circuit = properties.kafka().circuit();
        var config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        int timeoutMs = (int) circuit.probeTimeout().toMillis();
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "ingest-kafka-circuit-probe");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                circuit.probeInterval().toMillis());
        var probe = new AdminProbe(Admin.create(config), circuit.probeTimeout());
        return new KafkaCircuit(circuit.failuresToOpen(), probe, registry)
                .startProbing(circuit.probeInterval(), circuit.stallAfter());
    }
}
