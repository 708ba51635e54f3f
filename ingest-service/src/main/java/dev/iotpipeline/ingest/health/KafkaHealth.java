package dev.iotpipeline.ingest.health;

import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.ingest.devicetype.DeviceTypeCatalog;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Readiness of ingest: the Kafka circuit is closed, the broker answers and the device types were loaded. A
 * load balancer that follows readiness stops sending uplinks here while Kafka is unreachable, instead of
 * collecting 503s.
 */
final class KafkaHealth extends AbstractHealthIndicator implements AutoCloseable {

    private final Admin admin;
    private final KafkaCircuit circuit;
    private final DeviceTypeCatalog catalog;
    private final Duration timeout;

    KafkaHealth(Admin admin, KafkaCircuit circuit, DeviceTypeCatalog catalog, Duration timeout) {
        super("Kafka is not reachable");
        this.admin = admin;
        this.circuit = circuit;
        this.catalog = catalog;
        this.timeout = timeout;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        if (circuit.isOpen()) {
            // the circuit's probe is already asking the broker; asking again would only hold this check up
            builder.down().withDetail("circuit", "open").withDetail("deviceTypesLoaded", catalog.isLoaded());
            return;
        }
        builder.withDetail("circuit", "closed");
        var nodes = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        builder.withDetail("brokers", nodes.size()).withDetail("deviceTypesLoaded", catalog.isLoaded());
        if (nodes.isEmpty() || !catalog.isLoaded()) {
            builder.down();
        } else {
            builder.up();
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
