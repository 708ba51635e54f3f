package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.web.security.CredentialStore;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
class RegistryConfig {

    private static final Logger log = LoggerFactory.getLogger(RegistryConfig.class);

    @Bean
    DeviceRegistry deviceRegistry() {
        return new DeviceRegistry(Clock.systemUTC());
    }

    @Bean
    CompactedRegistry<RegisteredDevice> registeredDevices(ConsumerFactory<?, ?> consumers, DeviceRegistry registry) {
        return new CompactedRegistry<>(consumers.getConfigurationProperties(), PipelineTopic.DEVICES, registry::apply);
    }

    @Bean
    CompactedRegistry<ChannelPolicy> channelPolicies(ConsumerFactory<?, ?> consumers, DeviceRegistry registry) {
        return new CompactedRegistry<>(
                consumers.getConfigurationProperties(), PipelineTopic.CHANNEL_POLICIES, registry::applyPolicy);
    }

    /** Reads the registry whole before the port opens: a device's credential must work from the first request. */
    @Bean
    ReaderLifecycle deviceRegistryReader(
            DeviceRegistry registry,
            CompactedRegistry<RegisteredDevice> devices,
            CompactedRegistry<ChannelPolicy> policies,
            KafkaAdmin admin,
            IngestProperties properties) {
        var k = properties.kafka();
        return new ReaderLifecycle("device registry", k.readerStartTimeout(), timeout -> {
            long started = System.nanoTime();
            if (!TopicDeclarations.createMissing(
                    admin,
                    timeout,
                    k.partitions(),
                    k.replicationFactor(),
                    PipelineTopic.DEVICES,
                    PipelineTopic.CHANNEL_POLICIES)) {
                return false;
            }
            boolean ready = policies.start(timeout) && devices.start(timeout);
            log.info(
                    "Device registry: {} devices read in {} ms",
                    registry.size(),
                    (System.nanoTime() - started) / 1_000_000);
            return ready;
        });
    }

    @Bean
    Registrar registrar(
            DeviceRegistry registry,
            CompactedRegistry<RegisteredDevice> devices,
            CompactedRegistry<ChannelPolicy> policies,
            KafkaTemplate<String, Object> kafka,
            CredentialStore credentials,
            IngestProperties properties) {
        var r = properties.registry();
        return new Registrar(
                registry,
                devices,
                policies,
                kafka::send,
                credentials,
                Clock.systemUTC(),
                r.defaultOverlap(),
                properties.kafka().sendTimeout(),
                r.importTimeout());
    }

    @Bean
    DeviceImport deviceImport(JsonMapper json, IngestProperties properties) {
        return new DeviceImport(json, properties.registry().maxImportLines());
    }
}
