package dev.iotpipeline.ingest.devicetype;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;

@Configuration(proxyBeanMethods = false)
class DeviceTypeConfig {

    @Bean
    DeviceTypeCatalog deviceTypeCatalog(ConsumerFactory<?, ?> consumers) {
        return new DeviceTypeCatalog(consumers.getConfigurationProperties());
    }

    @Bean
    ReaderLifecycle deviceTypeCatalogReader(DeviceTypeCatalog catalog, IngestProperties properties) {
        return new ReaderLifecycle("device-types catalog", properties.kafka().readerStartTimeout(), catalog::start);
    }
}
