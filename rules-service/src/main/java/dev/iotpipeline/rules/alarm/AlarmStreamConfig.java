package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.kafka.StreamsServiceConfiguration;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.StreamsDeadLetters;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
@Import(StreamsServiceConfiguration.class)
class AlarmStreamConfig {

    @Bean
    RuleMetrics ruleMetrics(MeterRegistry registry) {
        return new RuleMetrics(registry);
    }

    @Bean
    KStream<String, AlarmEvent> alarmStream(StreamsBuilder builder, RuleSet rules, RuleMetrics metrics) {
        return AlarmTopology.build(builder, rules, Clock.systemUTC(), metrics, Duration.ofSeconds(1));
    }

    /**
     * A data unit or alarm command that does not parse, or that evaluation throws on, goes to
     * events.dead-letter with its cause, and evaluation goes on with the next record.
     */
    @Bean
    StreamsBuilderFactoryBeanConfigurer deadLetters(
            DeadLetterKafka kafka, KafkaProperties properties, MeterRegistry meters) {
        var recoverer = new DeadLetterRecoverer(
                kafka.template,
                PipelineTopic.EVENTS_DEAD_LETTER,
                DeadLetterHeaders.STAGE_RULES,
                properties.getStreams().getApplicationId(),
                Clock.systemUTC(),
                meters);
        return factoryBean -> {
            var config = factoryBean.getStreamsConfiguration();
            StreamsDeadLetters.configure(config, recoverer);
            factoryBean.setStreamsConfiguration(config);
        };
    }

    @Bean
    DeadLetterKafka deadLetterKafka(ProducerFactory<?, ?> producers) {
        return new DeadLetterKafka(producers);
    }

    /**
     * The dead letters' own producer, closed with the context: Streams hands failed records over as raw bytes,
     * key included, which the application's String-keyed template cannot send. Not a KafkaTemplate bean, which
     * would replace Spring Boot's.
     */
    static final class DeadLetterKafka implements DisposableBean {

        private final KafkaTemplate<byte[], byte[]> template;

        @SuppressWarnings("unchecked")
        DeadLetterKafka(ProducerFactory<?, ?> producers) {
            this.template = new KafkaTemplate<>(
                    (ProducerFactory<byte[], byte[]>) producers,
                    Map.of(
                            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                            ByteArraySerializer.class,
                            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                            ByteArraySerializer.class));
        }

        @Override
        public void destroy() {
            template.destroy();
        }
    }
}
