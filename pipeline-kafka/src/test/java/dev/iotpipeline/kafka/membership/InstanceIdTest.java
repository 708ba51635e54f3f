package dev.iotpipeline.kafka.membership;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class InstanceIdTest {

    private final MockEnvironment environment = new MockEnvironment()
            .withProperty("spring.application.name", "decoder-service")
            .withProperty("HOSTNAME", "box-1");

    @Test
    void shouldDeriveAStableIdFromNameHostAndAFixedPort() {
        environment.setProperty("server.port", "8081");

        assertThat(InstanceId.resolve(environment)).contains("decoder-service-box-1-8081");
    }

    @Test
    void shouldTellInstancesOnOneHostApartByPort() {
        environment.setProperty("server.port", "8091");

        assertThat(InstanceId.resolve(environment)).contains("decoder-service-box-1-8091");
    }

    @Test
    void shouldPreferTheExplicitId() {
        environment.setProperty("server.port", "0");
        environment.setProperty(InstanceId.PROPERTY, "decoder-a");

        assertThat(InstanceId.resolve(environment)).contains("decoder-a");
    }

    @Test
    void shouldHaveNoStaticIdOnARandomPort() {
        environment.setProperty("server.port", "0");

        assertThat(InstanceId.resolve(environment)).isEmpty();
    }

    @Test
    void shouldHaveNoStaticIdWhenTurnedOff() {
        environment.setProperty("server.port", "8081");
        environment.setProperty(InstanceId.ENABLED, "false");

        assertThat(InstanceId.resolve(environment)).isEmpty();
    }

    @Test
    void shouldReplaceCharactersKafkaRejects() {
        environment.setProperty(InstanceId.PROPERTY, "pod 7/eu:west");

        assertThat(InstanceId.resolve(environment)).contains("pod_7_eu_west");
    }
}
