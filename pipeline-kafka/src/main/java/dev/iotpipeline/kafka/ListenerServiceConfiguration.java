package dev.iotpipeline.kafka;

import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.RetryPolicy;
import dev.iotpipeline.kafka.membership.InstanceId;
import dev.iotpipeline.kafka.membership.StaticMembership;
import dev.iotpipeline.kafka.readiness.ListenerReadiness;
import dev.iotpipeline.kafka.tracing.KafkaTracingConfiguration;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.ContainerCustomizer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.DefaultErrorHandler;

/**
 * Imported by a service whose consumers are {@code @KafkaListener} containers: static group membership, a
 * {@code kafkaConsumers} health indicator for its readiness group, and the error handler built from the service's
 * {@link RetryPolicy} and {@link DeadLetterRecoverer} beans. Imported, not auto-configured, because
 * the local stack runs all services on one classpath and ingest has no listener to wait for.
 */
@Configuration(proxyBeanMethods = false)
@Import(KafkaTracingConfiguration.class)
public class ListenerServiceConfiguration {

    /** How often a consumer the broker refused (authentication or authorization) asks again. */
    static final Duration AUTH_RETRY = Duration.ofSeconds(10);

    /** Static membership, and the readiness indicator following each container's assignments. */
    @Bean
    ContainerCustomizer<Object, Object, ConcurrentMessageListenerContainer<Object, Object>> listenerConsumers(
            Environment environment, ListenerReadiness readiness) {
        var membership = StaticMembership.listeners(
                consumerProtocol(environment)
                        ? null
                        : InstanceId.resolve(environment).orElse(null));
        return container -> {
            membership.configure(container);
            var properties = container.getContainerProperties();
            // The next poll need not wait for the broker to confirm the last commit: a commit that is lost
            // only replays records whose outputs are idempotent downstream, as a crash before it would.
            properties.setSyncCommits(false);
            // Without it a container stops for good on the first authentication or authorization failure (a SASL
            // password rotated before the service's, an ACL briefly missing), leaving the service up and reading
            // nothing; with it the consumer tries again at this interval and resumes once the broker lets it in.
            properties.setAuthExceptionRetryInterval(AUTH_RETRY);
            properties.setConsumerRebalanceListener(readiness.following(properties.getConsumerRebalanceListener()));
        };
    }

    /**
     * With KIP-848's {@code group.protocol=consumer} the broker owns session timeout and heartbeats, and the
     * consumer refuses the classic settings the services configure; dropping them makes the protocol a
     * one-property switch.
     */
    @Bean
    DefaultKafkaConsumerFactoryCustomizer consumerProtocolSettings() {
        return factory -> {
            var protocol = factory.getConfigurationProperties().get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
            if (protocol != null && GroupProtocol.CONSUMER.name().equalsIgnoreCase(protocol.toString())) {
                factory.removeConfig(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
                factory.removeConfig(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);
            }
        };
    }

    /**
     * Under KIP-848 a crashed static member cannot come back until the broker-side session timeout expired:
     * its successor is refused (UnreleasedInstanceIdException) and its container stops. Measured here: never
     * resumed within 3 minutes, where dynamic membership resumed after the 45 s session timeout.
     */
    private static boolean consumerProtocol(Environment environment) {
        return GroupProtocol.CONSUMER
                .name()
                .equalsIgnoreCase(environment.getProperty("spring.kafka.consumer.properties.group.protocol", ""));
    }

    /**
     * Failures are retried as the service's policy classifies them; a record that is not retried (again) goes to
     * the service's dead-letter recoverer, so it never holds its partition.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler(RetryPolicy retryPolicy, DeadLetterRecoverer recoverer) {
        return retryPolicy.errorHandler(recoverer);
    }

    @Bean
    ListenerReadiness kafkaConsumersHealthIndicator(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
        return new ListenerReadiness(() -> {
            var endpoints = registry.getIfAvailable();
            return endpoints == null ? List.of() : endpoints.getListenerContainers();
        });
    }
}
