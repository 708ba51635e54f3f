package dev.iotpipeline.localstack;

import org.testcontainers.junit.jupiter.Testcontainers;

/** The ingest API contract with Kafka and PostgreSQL from Testcontainers, where a Docker engine exists. */
@Testcontainers(disabledWithoutDocker = true)
class ContainersIngestApiIT extends IngestApiContract {

    @Override
    protected LocalStack stack() {
        return ContainerStack.shared();
    }
}
