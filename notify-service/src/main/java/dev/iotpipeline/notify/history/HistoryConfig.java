package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DeadLetterHeaders;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.kafka.ListenerServiceConfiguration;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.RetryPolicy;
import dev.iotpipeline.notify.NotifyProperties;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;

@Configuration(proxyBeanMethods = false)
@Import(ListenerServiceConfiguration.class)
class HistoryConfig {

    @Bean
    HistoryStore historyStore(NamedParameterJdbcTemplate jdbc) {
        return new HistoryStore(jdbc);
    }

    @Bean
    HistoryWriter historyWriter(HistoryStore store) {
        return new HistoryWriter(store::storeDataUnits, store::storeAlarms);
    }

    /**
     * The database being away is waited out without limit; a record that can never be stored (not an event,
     * refused by the table) goes to events.dead-letter with its cause, so it never holds its partition.
     */
    @Bean
    DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<String, Object> kafka, KafkaProperties kafkaProperties,
            NotifyProperties properties) {
        var recoverer = new DeadLetterRecoverer(kafka, PipelineTopic.EVENTS_DEAD_LETTER, DeadLetterHeaders.STAGE_STORE,
                kafkaProperties.getConsumer().getGroupId(), Clock.systemUTC());
        return new RetryPolicy(properties.kafka().retryBackoff(), properties.kafka().retryBackoffMax())
                .errorHandler(recoverer);
    }

    @Bean
    NewTopic eventsDeadLetterTopic(NotifyProperties properties) {
        return PipelineTopic.EVENTS_DEAD_LETTER.newTopic(properties.kafka().partitions(),
                properties.kafka().replicationFactor());
    }
}
