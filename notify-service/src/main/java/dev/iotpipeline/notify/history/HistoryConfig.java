package dev.iotpipeline.notify.history;

import dev.iotpipeline.kafka.AcknowledgedBatches;
import dev.iotpipeline.kafka.ListenerServiceConfiguration;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.RetryPolicy;
import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.notify.NotifyProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.kafka.config.ContainerPostProcessor;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.event.ListenerContainerIdleEvent;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration(proxyBeanMethods = false)
@Import(ListenerServiceConfiguration.class)
class HistoryConfig {

    private static final Logger log = LoggerFactory.getLogger(HistoryConfig.class);

    @Bean
    HistoryStore historyStore(
            NamedParameterJdbcTemplate jdbc, TransactionTemplate transactions, NotifyProperties properties) {
        return new HistoryStore(jdbc, transactions, properties.history().aggregateLateness());
    }

    @Bean
    HistoryMaintenance historyMaintenance(
            JdbcTemplate jdbc, TransactionTemplate transactions, NotifyProperties properties) {
        var history = properties.history();
        return new HistoryMaintenance(
                jdbc,
                transactions,
                history.retention(),
                history.alarmRetention(),
                history.partitionsAhead(),
                Clock.systemUTC());
    }

    /** Runs maintenance at start, then every interval; a failed run (database away) is retried at the next. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService historyMaintenanceSchedule(HistoryMaintenance maintenance, NotifyProperties properties) {
        var scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("history-maintenance").daemon().factory());
        long every = properties.history().maintenanceInterval().toMillis();
        scheduler.scheduleWithFixedDelay(
                () -> {
                    try {
                        maintenance.run();
                    } catch (RuntimeException e) {
                        log.warn(
                                "History maintenance failed, next try in {}: {}",
                                properties.history().maintenanceInterval(),
                                e.toString());
                    }
                },
                0,
                every,
                TimeUnit.MILLISECONDS);
        return scheduler;
    }

    @Bean
    HistoryWarmup historyWarmup(HistoryStore store, TransactionTemplate transactions) {
        return new HistoryWarmup(store, transactions);
    }

    @Bean
    AlarmStore alarmStore(NamedParameterJdbcTemplate jdbc) {
        return new AlarmStore(jdbc);
    }

    @Bean
    RegisteredDevices registeredDevices(NamedParameterJdbcTemplate jdbc, TransactionTemplate transactions) {
        return new RegisteredDevices(jdbc, transactions);
    }

    @Bean
    RegistryMirror registryMirror(RegisteredDevices devices) {
        return new RegistryMirror(devices::apply);
    }

    @Bean
    LatestReadings latestReadings(HistoryStore store, NotifyProperties properties) {
        return new LatestReadings(store::moveLatest, properties.history().latestInterval(), System::nanoTime);
    }

    /**
     * The store writer's container: offsets committed as {@link LatestReadings} acknowledges batches; an idle event
     * soon after the stream pauses; its waiting readings written before partitions are given up.
     */
    @Bean
    ContainerPostProcessor<Object, Object, AbstractMessageListenerContainer<Object, Object>> storeWriterContainer(
            LatestReadings latest, NotifyProperties properties) {
        var idle = Duration.ofMillis(
                Math.clamp(properties.history().latestInterval().toMillis(), 10, 100));
        return AcknowledgedBatches.container(idle, latest::following);
    }

    @Bean
    ApplicationListener<ListenerContainerIdleEvent> latestReadingsWhenIdle(LatestReadings latest) {
        return event -> {
            if (event.getListenerId().startsWith(HistoryWriter.ID)) {
                latest.whenIdle();
            }
        };
    }

    /** Each stored batch records ingest-to-postgresql: the uplink's arrival at ingest to its row committed. */
    @Bean
    HistoryWriter historyWriter(
            HistoryStore store,
            AlarmStore alarms,
            MeterRegistry meters,
            DeadLetterRecoverer storeDeadLetters,
            LatestReadings latest,
            NotifyProperties properties) {
        var hops = new HopTimers(meters);
        return new HistoryWriter(
                units -> {
                    var conflicts = store.storeHistory(units);
                    for (var unit : units) {
                        hops.since(
                                "ingest-to-postgresql",
                                unit.event().receivedAt().toEpochMilli());
                    }
                    return conflicts;
                },
                alarms::storeAlarms,
                storeDeadLetters::accept,
                latest,
                new HistoryWriter.Linger(
                        properties.history().writeLinger(), properties.history().writeLingerBelow()));
    }

    /**
     * The database being away is waited out without limit; a record that can never be stored (not an event,
     * refused by the table) goes to events.dead-letter with its cause, so it never holds its partition.
     */
    @Bean
    RetryPolicy retryPolicy(NotifyProperties properties) {
        return new RetryPolicy(
                properties.kafka().retryBackoff(), properties.kafka().retryBackoffMax());
    }

    /** Writes the store writer's dead letters: for the error handler, and for conflicting retries found in a batch. */
    @Bean
    DeadLetterRecoverer storeDeadLetters(
            KafkaTemplate<String, Object> kafka, KafkaProperties kafkaProperties, MeterRegistry meters) {
        return new DeadLetterRecoverer(
                kafka,
                PipelineTopic.EVENTS_DEAD_LETTER,
                DeadLetterHeaders.STAGE_STORE,
                kafkaProperties.getConsumer().getGroupId(),
                Clock.systemUTC(),
                meters);
    }

    /**
     * The topic notify owns, events.dead-letter, which its store writer writes, and devices, which its registry
     * mirror reads (so that its consumer finds the topic when notify starts before ingest): all created when missing,
     * the others' settings kept by their owners.
     */
    @Bean
    KafkaAdmin.NewTopics notifyTopics(NotifyProperties properties, KafkaAdmin admin) {
        var k = properties.kafka();
        return TopicDeclarations.owned(
                admin,
                PipelineTopic.Owner.NOTIFY,
                k.partitions(),
                k.replicationFactor(),
                Map.of(),
                PipelineTopic.EVENTS_DEAD_LETTER,
                PipelineTopic.DEVICES);
    }
}
