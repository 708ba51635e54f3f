package dev.iotpipeline.localstack;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** The same pipeline contract with Kafka and PostgreSQL from Testcontainers, where a Docker engine exists. */
@Testcontainers(disabledWithoutDocker = true)
class ContainersPipelineIT extends PipelineContract {

    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.1");

    @Container
    static final PostgreSQLContainer POSTGRES = new PostgreSQLContainer("postgres:18");

    @TempDir
    static Path data;

    private static LocalStack stack;

    @BeforeAll
    static void startServices() throws Exception {
        stack = LocalStack.startOn(new Infrastructure(KAFKA.getBootstrapServers(), POSTGRES.getJdbcUrl(),
                POSTGRES.getUsername(), POSTGRES.getPassword()), EmbeddedPipelineIT.settings(data));
    }

    @AfterAll
    static void stopServices() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Override
    protected LocalStack stack() {
        return stack;
    }
}
