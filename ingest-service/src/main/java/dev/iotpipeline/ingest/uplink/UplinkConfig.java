package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.devicetype.DeviceTypeCatalog;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;

@Configuration(proxyBeanMethods = false)
class UplinkConfig {

    @Bean
    UplinkFactory uplinkFactory(DeviceTypeCatalog catalog, IngestProperties properties) {
        return new UplinkFactory(catalog::isKnown, properties.limits().maxPayloadBytes(), Clock.systemUTC());
    }

    @Bean
    UplinkPublisher uplinkPublisher(KafkaTemplate<String, Object> kafka, IngestProperties properties) {
        return new UplinkPublisher(kafka, properties.kafka().sendTimeout(), properties.kafka().retryAfter());
    }

    /** Created when missing, so the service also starts against a bare broker. */
    @Bean
    NewTopic uplinksTopic(IngestProperties properties) {
        return PipelineTopic.UPLINKS_ENCODED.newTopic(properties.kafka().partitions(),
                properties.kafka().replicationFactor());
    }
}
