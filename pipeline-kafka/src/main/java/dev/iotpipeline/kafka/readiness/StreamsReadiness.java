package dev.iotpipeline.kafka.readiness;

import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** Readiness of a Kafka Streams application: ready only while it is RUNNING (not starting, not rebalancing). */
public class StreamsReadiness implements HealthIndicator {

    private final StreamsBuilderFactoryBean streams;

    public StreamsReadiness(StreamsBuilderFactoryBean streams) {
        this.streams = streams;
    }

    @Override
    public Health health() {
        KafkaStreams kafkaStreams = streams.getKafkaStreams();
        if (kafkaStreams == null) {
            return Health.outOfService().withDetail("state", "NOT_STARTED").build();
        }
        var state = kafkaStreams.state();
        var builder = switch (state) {
            case RUNNING -> Health.up();
            case CREATED, REBALANCING -> Health.outOfService();
            default -> Health.down();
        };
        builder.withDetail("state", state.name());
        if (state == KafkaStreams.State.RUNNING) {
            int tasks = kafkaStreams.metadataForLocalThreads().stream()
                    .mapToInt(t -> t.activeTasks().size())
                    .sum();
            builder.withDetail("activeTasks", tasks);
            if (tasks == 0) {
                builder.withDetail("note", "no partitions assigned: this group has more instances than partitions");
            }
        }
        return builder.build();
    }
}
