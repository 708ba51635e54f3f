package dev.iotpipeline.localstack;

import org.testcontainers.junit.jupiter.Testcontainers;

/** The decoder contract with Kafka and PostgreSQL from Testcontainers, where a Docker engine exists. */
@Testcontainers(disabledWithoutDocker = true)
class ContainersDecoderApiIT extends DecoderApiContract {

    @Override
    protected LocalStack stack() {
        return ContainerStack.shared();
    }
}
