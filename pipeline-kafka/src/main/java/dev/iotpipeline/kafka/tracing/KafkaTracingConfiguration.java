package dev.iotpipeline.kafka.tracing;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Imported by every service that sends or receives on Kafka: its hops are observed only for sampled traces. */
@Configuration(proxyBeanMethods = false)
public class KafkaTracingConfiguration {

    @Bean
    SampledHopsOnly sampledKafkaHopsOnly() {
        return new SampledHopsOnly();
    }
}
