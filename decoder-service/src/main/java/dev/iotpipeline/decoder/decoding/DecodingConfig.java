package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.registry.DeviceTypeRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

@Configuration(proxyBeanMethods = false)
class DecodingConfig {

    @Bean
    UplinkListener uplinkListener(DeviceTypeRegistry registry, KafkaTemplate<String, Object> kafka,
            DecoderProperties properties, MeterRegistry meters) {
        return new UplinkListener(new UplinkDecoder(registry::resolve, Clock.systemUTC()), kafka,
                properties.kafka().sendTimeout(), new DecoderMetrics(meters));
    }

    /**
     * Bad records never throw (they become dead letters), so whatever does throw is Kafka itself being
     * away: retry the batch until it is back rather than skip it after a few attempts.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler(DecoderProperties properties) {
        return new DefaultErrorHandler(new FixedBackOff(properties.kafka().retryBackoff().toMillis(),
                FixedBackOff.UNLIMITED_ATTEMPTS));
    }
}
