package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.registry.DeviceTypeRegistry;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.kafka.AcknowledgedBatches;
import dev.iotpipeline.kafka.ListenerServiceConfiguration;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.RetryPolicy;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.ContainerPostProcessor;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.event.ListenerContainerIdleEvent;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

@Configuration(proxyBeanMethods = false)
@Import(ListenerServiceConfiguration.class)
class DecodingConfig {

    private static final String WARMUP_GROUP = "decoder-warmup";

    @Bean
    OrderedAcks orderedAcks(DecoderProperties properties) {
        return new OrderedAcks(properties.kafka().commitInterval(), System::nanoTime);
    }

    /**
     * The listener's container: offsets committed as {@link OrderedAcks} acknowledges batches, at most once a
     * commit interval (at a few hundred uplinks a second a poll holds a record or two, and a commit per poll was a
     * quarter of the broker's requests); an idle event once a commit interval after the stream pauses, for the last
     * batches' acknowledgments or a failed write's reading again; the writes in flight waited for before partitions
     * are given up.
     */
    @Bean
    ContainerPostProcessor<Object, Object, AbstractMessageListenerContainer<Object, Object>> decoderContainer(
            OrderedAcks acks, DecoderProperties properties) {
        return AcknowledgedBatches.container(
                properties.kafka().commitInterval(),
                rebalance -> acks.following(rebalance, properties.kafka().sendTimeout()));
    }

    @Bean
    ApplicationListener<ListenerContainerIdleEvent> decoderAcksWhenIdle(UplinkListener listener) {
        return event -> {
            if (event.getListenerId().startsWith(UplinkListener.ID)) {
                listener.whenIdle(event.getConsumer());
            }
        };
    }

    @Bean
    UplinkListener uplinkListener(
            OrderedAcks acks,
            DeviceTypeRegistry registry,
            KafkaTemplate<String, Object> kafka,
            DecoderProperties properties,
            MeterRegistry meters,
            KafkaProperties kafkaProperties,
            ObjectProvider<ObservationRegistry> observations) {
        return listener(
                UplinkListener.Outputs.PIPELINE,
                acks,
                meters,
                registry,
                kafka,
                properties,
                kafkaProperties,
                observations);
    }

    private static UplinkListener listener(
            UplinkListener.Outputs outputs,
            OrderedAcks acks,
            MeterRegistry meters,
            DeviceTypeRegistry registry,
            KafkaTemplate<String, Object> kafka,
            DecoderProperties properties,
            KafkaProperties kafkaProperties,
            ObjectProvider<ObservationRegistry> observations) {
        return new UplinkListener(
                new UplinkDecoder(registry::resolve, Clock.systemUTC()),
                outputs,
                kafka,
                properties.kafka().sendTimeout(),
                properties.kafka().sendNowBelow(),
                properties.kafka().sendNowFrom(),
                properties.kafka().sendNowBelowRate(),
                acks,
                properties.kafka().batchesInFlight(),
                maxPollRecords(kafkaProperties),
                new DecoderMetrics(meters),
                new RecordTracing(
                        observations.getIfAvailable(() -> ObservationRegistry.NOOP),
                        "decoder",
                        kafkaProperties.getConsumer().getGroupId()));
    }

    /** The consumer's {@code spring.kafka.consumer.max-poll-records}, or the Kafka client's default when unset. */
    private static int maxPollRecords(KafkaProperties kafkaProperties) {
        Integer set = kafkaProperties.getConsumer().getMaxPollRecords();
        return set == null ? ConsumerConfig.DEFAULT_MAX_POLL_RECORDS : set;
    }

    /**
     * The warm-up's listener is the real one's twin: its own acknowledgments (given to no one) and meters (a registry
     * no scrape reads, of the same kind as the real one's), so the rehearsal counts as no traffic.
     */
    @Bean
    @SuppressWarnings("unchecked")
    DecoderWarmup decoderWarmup(
            DeviceTypeRegistry registry,
            KafkaTemplate<String, Object> kafka,
            KafkaAdmin admin,
            ConsumerFactory<?, ?> consumers,
            DecoderProperties properties,
            KafkaProperties kafkaProperties,
            ObjectProvider<ObservationRegistry> observations) {
        return new DecoderWarmup(
                topic -> listener(
                        UplinkListener.Outputs.rehearsal(topic),
                        new OrderedAcks(properties.kafka().commitInterval(), System::nanoTime),
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        registry,
                        kafka,
                        properties,
                        kafkaProperties,
                        observations),
                () -> registry.all().stream().map(DeviceType::name).toList(),
                kafka,
                () -> Admin.create(admin.getConfigurationProperties()),
                // A group of its own that it never joins: it reads by assignment and commits nothing. Its
                // deserializers are the listener's, which reads String keys and byte[] values.
                () -> (Consumer<String, byte[]>) consumers.createConsumer(WARMUP_GROUP, WARMUP_GROUP, null),
                properties.kafka().replicationFactor());
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
