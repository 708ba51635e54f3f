package dev.iotpipeline.localstack;

import org.testcontainers.junit.jupiter.Testcontainers;

/** The same pipeline contract with Kafka and PostgreSQL from Testcontainers, where a Docker engine exists. */
@Testcontainers(disabledWithoutDocker = true)
class ContainersPipelineIT extends PipelineContract {

    @Override
    protected LocalStack stack() {
        return ContainerStack.shared();
    }
}
