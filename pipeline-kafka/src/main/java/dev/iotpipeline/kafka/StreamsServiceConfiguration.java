package dev.iotpipeline.kafka;

import dev.iotpipeline.kafka.membership.InstanceId;
import dev.iotpipeline.kafka.metrics.StateStoreMeters;
import dev.iotpipeline.kafka.readiness.StreamsReadiness;
import dev.iotpipeline.kafka.tracing.KafkaTracingConfiguration;
import java.time.Clock;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;

/**
 * Imported by a Kafka Streams service: static membership for its main consumer (Streams appends the thread
 * index), stream threads replaced rather than the client shut down when one dies, a {@code kafkaStreams}
 * health indicator for its readiness group, and only its RocksDB state stores' metrics (one tag set per name).
 */
@Configuration(proxyBeanMethods = false)
@Import(KafkaTracingConfiguration.class)
public class StreamsServiceConfiguration {

    private static final Logger log = LoggerFactory.getLogger(StreamsServiceConfiguration.class);

    /**
     * A thread dies when Kafka stays away longer than the clients wait (a dead letter or an output cannot be
     * written); Streams' default then shuts the whole client down for good. A new thread resumes from the last
     * commit instead, so a broker outage is waited out like in the listener services.
     */
    @Bean
    StreamsBuilderFactoryBeanConfigurer resilientStreams(Environment environment) {
        var instanceId = InstanceId.resolve(environment);
        return factoryBean -> {
            instanceId.ifPresent(id -> {
                var config = factoryBean.getStreamsConfiguration();
                config.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), id);
                factoryBean.setStreamsConfiguration(config);
                log.info("Streams joins its group as static member {}-<thread>", id);
            });
            var replacements = new ThreadReplacements(Clock.systemUTC());
            factoryBean.setStreamsUncaughtExceptionHandler(failure -> {
                var wait = replacements.afterDeath();
                log.error("Stream thread died; replacing it{}", wait.isZero() ? "" : " in " + wait, failure);
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            });
        };
    }

    @Bean
    StateStoreMeters stateStoreMeters() {
        return new StateStoreMeters();
    }

    @Bean
    StreamsReadiness kafkaStreamsHealthIndicator(StreamsBuilderFactoryBean streams) {
        return new StreamsReadiness(streams);
    }
}
