package dev.iotpipeline.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.readiness.ListenerReadiness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.mock.env.MockEnvironment;

/** What every service's listener containers are given, checked on a container that is never started. */
class ListenerServiceConfigurationTest {

    @Test
    void aContainerRefusedByTheBrokerAsksAgainInsteadOfStoppingForGood() {
        var container = new ConcurrentMessageListenerContainer<Object, Object>(
                new DefaultKafkaConsumerFactory<>(Map.of()), new ContainerProperties("uplinks.encoded"));

        new ListenerServiceConfiguration()
                .listenerConsumers(new MockEnvironment(), new ListenerReadiness(List::of))
                .configure(container);

        assertThat(container.getContainerProperties().getAuthExceptionRetryInterval())
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(container.getContainerProperties().isSyncCommits()).isFalse();
    }
}
