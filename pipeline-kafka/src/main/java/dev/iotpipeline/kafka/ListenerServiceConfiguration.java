package dev.iotpipeline.kafka;

import dev.iotpipeline.kafka.membership.InstanceId;
import dev.iotpipeline.kafka.membership.StaticMembership;
import dev.iotpipeline.kafka.readiness.ListenerReadiness;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.ContainerCustomizer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Imported by a service whose consumers are {@code @KafkaListener} containers: static group membership and a
 * {@code kafkaConsumers} health indicator for its readiness group. Imported, not auto-configured, because
 * the local stack runs all services on one classpath and ingest has no listener to wait for.
 */
@Configuration(proxyBeanMethods = false)
public class ListenerServiceConfiguration {

    @Bean
    ContainerCustomizer<Object, Object, ConcurrentMessageListenerContainer<Object, Object>> staticMembership(
            Environment environment) {
        return StaticMembership.listeners(InstanceId.resolve(environment).orElse(null));
    }

    /** Also the containers' rebalance listener: Spring Boot sets a unique ConsumerAwareRebalanceListener bean. */
    @Bean
    ListenerReadiness kafkaConsumersHealthIndicator(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
        return new ListenerReadiness(() -> {
            var endpoints = registry.getIfAvailable();
            return endpoints == null ? List.of() : endpoints.getListenerContainers();
        });
    }
}
