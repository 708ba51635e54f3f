package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import java.time.Clock;
import java.util.Map;
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
            // Read whole before the listener starts: it must exist even if KafkaAdmin's pass could not create it.
            var k = properties.kafka();
            if (!TopicDeclarations.createMissing(
                    admin, timeout, k.partitions(), k.replicationFactor(), PipelineTopic.DEVICE_TYPES)) {
                return false;
            }
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

    /**
     * The topics the decoder owns, and uplinks.encoded, which its listener reads (so that its consumer finds the
     * topic when the decoder starts before ingest, rather than warning about an unknown topic until then): all
     * created when missing, uplinks.encoded's settings kept by ingest, its owner.
     */
    @Bean
    KafkaAdmin.NewTopics decoderTopics(DecoderProperties properties, KafkaAdmin admin) {
        var k = properties.kafka();
        return TopicDeclarations.owned(
                admin,
                PipelineTopic.Owner.DECODER,
                k.partitions(),
                k.replicationFactor(),
                Map.of(
                        PipelineTopic.DATA_UNITS, k.dataUnitsRetention(),
                        PipelineTopic.DEAD_LETTER, k.deadLetterRetention()),
                PipelineTopic.UPLINKS_ENCODED);
    }
}
