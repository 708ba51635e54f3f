package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.TopicPartitions;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

@Configuration(proxyBeanMethods = false)
class RegistryConfig {

    @Bean
    Codecs codecs(DecoderProperties properties) {
        return new Codecs(
                properties.codecs().scriptTimeLimit(),
                properties.codecs().scriptAllocationLimit().toBytes(),
                properties.codecs().scriptSizeLimit().toBytes(),
                properties.codecs().scriptCompileTimeLimit());
    }

    @Bean
    DeviceTypeRegistry deviceTypeRegistry(ConsumerFactory<?, ?> consumers, Codecs codecs) {
        return new DeviceTypeRegistry(consumers.getConfigurationProperties(), codecs);
    }

    /** Reads the registry whole, then writes the built-in types it lacks, before the listener decodes anything. */
    @Bean
    ReaderLifecycle deviceTypeRegistryReader(
            DeviceTypeRegistry registry,
            KafkaAdmin admin,
            KafkaTemplate<String, Object> template,
            Codecs codecs,
            DecoderProperties properties) {
        return new ReaderLifecycle("device-types registry", properties.kafka().readerStartTimeout(), timeout -> {
            // The topic must exist before it can be read whole; KafkaAdmin would only create it after all beans.
            admin.createOrModifyTopics(
                    PipelineTopic.DEVICE_TYPES.newTopic(1, properties.kafka().replicationFactor()));
            registry.start(timeout);
            BuiltInDeviceTypes.register(
                    codecs,
                    registry,
                    template,
                    Clock.systemUTC(),
                    properties.kafka().sendTimeout());
            return true;
        });
    }

    /** Created when missing, so the service also starts against a bare broker; existing ones keep their partitions. */
    @Bean
    KafkaAdmin.NewTopics decoderTopics(DecoderProperties properties, KafkaAdmin admin) {
        var k = properties.kafka();
        return new KafkaAdmin.NewTopics(TopicPartitions.keepExisting(
                admin.getConfigurationProperties(),
                PipelineTopic.DATA_UNITS.newTopic(k.partitions(), k.replicationFactor(), k.dataUnitsRetention()),
                PipelineTopic.DEAD_LETTER.newTopic(k.partitions(), k.replicationFactor(), k.deadLetterRetention()),
                PipelineTopic.DEVICE_TYPES.newTopic(1, k.replicationFactor())));
    }
}
