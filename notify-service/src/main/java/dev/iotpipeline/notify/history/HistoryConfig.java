package dev.iotpipeline.notify.history;

import dev.iotpipeline.notify.NotifyProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

@Configuration(proxyBeanMethods = false)
class HistoryConfig {

    @Bean
    HistoryStore historyStore(NamedParameterJdbcTemplate jdbc) {
        return new HistoryStore(jdbc);
    }

    @Bean
    HistoryWriter historyWriter(HistoryStore store) {
        return new HistoryWriter(store);
    }

    /** Only the database can make a batch fail; retry until it is back instead of skipping records. */
    @Bean
    DefaultErrorHandler kafkaErrorHandler(NotifyProperties properties) {
        return new DefaultErrorHandler(new FixedBackOff(properties.kafka().retryBackoff().toMillis(),
                FixedBackOff.UNLIMITED_ATTEMPTS));
    }
}
