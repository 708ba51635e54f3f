package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.registry.DeviceTypeRegistry;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.kafka.ListenerServiceConfiguration;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.RetryPolicy;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

@Configuration(proxyBeanMethods = false)
@Import(ListenerServiceConfiguration.class)
class DecodingConfig {

    @Bean
    UplinkListener uplinkListener(
            DeviceTypeRegistry registry,
            KafkaTemplate<String, Object> kafka,
            DecoderProperties properties,
            MeterRegistry meters,
            KafkaProperties kafkaProperties,
            ObjectProvider<ObservationRegistry> observations) {
        return new UplinkListener(
                new UplinkDecoder(registry::resolve, Clock.systemUTC()),
                kafka,
                properties.kafka().sendTimeout(),
                properties.kafka().sendNowBelow(),
                properties.kafka().sendNowFrom(),
                properties.kafka().sendNowBelowRate(),
                new DecoderMetrics(meters),
                new RecordTracing(
                        observations.getIfAvailable(() -> ObservationRegistry.NOOP),
                        "decoder",
                        kafkaProperties.getConsumer().getGroupId()));
    }

    @Bean
    DecoderWarmup decoderWarmup(DeviceTypeRegistry registry, KafkaTemplate<String, Object> kafka) {
        return new DecoderWarmup(
                new UplinkDecoder(registry::resolve, Clock.systemUTC()),
                () -> registry.all().stream().map(DeviceType::name).toList(),
                kafka);
    }

    /**
     * Bad input never throws (it becomes a dead letter in UplinkDecoder); what throws is a write to Kafka.
     * Kafka being away is waited out; a write that can never succeed sends the uplink to uplinks.dead-letter.
     */
    @Bean
    RetryPolicy retryPolicy(DecoderProperties properties) {
        return new RetryPolicy(
                properties.kafka().retryBackoff(), properties.kafka().retryBackoffMax());
    }

    @Bean
    DeadLetterRecoverer decodeDeadLetters(
            KafkaTemplate<String, Object> kafka, KafkaProperties kafkaProperties, MeterRegistry meters) {
        return new DeadLetterRecoverer(
                kafka,
                PipelineTopic.DEAD_LETTER,
                DeadLetterHeaders.STAGE_DECODE,
                kafkaProperties.getConsumer().getGroupId(),
                Clock.systemUTC(),
                meters);
    }
}
