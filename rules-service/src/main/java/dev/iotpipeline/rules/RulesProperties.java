package dev.iotpipeline.rules;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Configuration of rules-service under the {@code rules} prefix. */
@Validated
@ConfigurationProperties("rules")
public record RulesProperties(@Valid @NotNull @DefaultValue Kafka kafka) {

    /**
     * Topic layout for topics this service creates, with the retention of those it owns (alarms bounds WebSocket
     * {@code since} replays of alarms), how long a rule write may wait for Kafka, and how long the start may take to
     * make sure Kafka Streams' input topics exist.
     */
    public record Kafka(
            @DefaultValue("6") @Positive int partitions,
            @DefaultValue("1") @Positive short replicationFactor,
            @NotNull @DefaultValue("30d") Duration alarmsRetention,
            @NotNull @DefaultValue("30d") Duration deadLetterRetention,
            @NotNull @DefaultValue("10s") Duration sendTimeout,
            @NotNull @DefaultValue("60s") Duration readerStartTimeout) {}
}
