package dev.iotpipeline.localstack;

import java.nio.file.Files;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** The four services on Kafka and PostgreSQL from Testcontainers, shared by the container ITs of this JVM. */
final class ContainerStack {

    private static LocalStack shared;

    private ContainerStack() {}

    static synchronized LocalStack shared() {
        if (shared == null) {
            try {
                var kafka = new KafkaContainer("apache/kafka:4.1.1");
                var postgres = new PostgreSQLContainer("postgres:18");
                kafka.start();
                postgres.start();
                shared = LocalStack.startOn(
                        new Infrastructure(
                                kafka.getBootstrapServers(),
                                postgres.getJdbcUrl(),
                                postgres.getUsername(),
                                postgres.getPassword()),
                        EmbeddedStack.settings(Files.createTempDirectory("iot-pipeline-containers")));
                EmbeddedStack.closeOnExit(shared, postgres::stop, kafka::stop);
            } catch (Exception e) {
                throw new IllegalStateException("container stack did not start", e);
            }
        }
        return shared;
    }
}
