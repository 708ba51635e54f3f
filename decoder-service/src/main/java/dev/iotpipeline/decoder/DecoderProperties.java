package dev.iotpipeline.decoder;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** Configuration of decoder-service under the {@code decoder} prefix. */
@Validated
@ConfigurationProperties("decoder")
public record DecoderProperties(
        @Valid @NotNull @DefaultValue Kafka kafka,
        @Valid @NotNull @DefaultValue Codecs codecs) {

    /**
     * Topic layout for topics this service creates, and how long a batch may wait for its writes. A write
     * Kafka did not take is retried after {@code retryBackoff}, doubling up to {@code retryBackoffMax}, for as
     * long as Kafka is away. The retentions are those of the topics it owns: data-units bounds WebSocket
     * {@code since} replays, uplinks.dead-letter how long a dead letter can be re-driven. {@code readerStartTimeout}
     * bounds the start's read of the device-types topic. A poll of fewer than {@code sendNowBelow} uplinks has its
     * data units sent at once; a larger one lets them wait up to the producer's {@code linger.ms}, which paces the
     * polls under load so that each hop downstream gets fuller fetches, unless it holds {@code sendNowFrom} or more
     * (batches that large are full enough, and a backlog draining would only be paused), or fewer than
     * {@code sendNowBelowRate} uplinks a second come (0, the default: never; set, devices posting in step do not wait
     * for the linger, at the cost of more requests per burst: docs/benchmarks/raw/experiments/send-now-below-rate.md).
     * After a partial poll the next poll does not wait for the batch's writes: up to {@code batchesInFlight} batches
     * may be in flight (0: each batch waits for its own); a full poll ({@code max-poll-records}: a backlog) waits for
     * its own and every earlier batch's, since overlapping them there costs produce requests and gains nothing. A
     * batch is committed, at most every {@code commitInterval}, once its writes and every earlier batch's succeeded.
     */
    public record Kafka(
            @DefaultValue("6") @Positive int partitions,
            @DefaultValue("1") @Positive short replicationFactor,
            @NotNull @DefaultValue("7d") Duration dataUnitsRetention,
            @NotNull @DefaultValue("30d") Duration deadLetterRetention,
            @NotNull @DefaultValue("30s") Duration sendTimeout,
            @DefaultValue("8") @Positive int sendNowBelow,
            @DefaultValue("32") @Positive int sendNowFrom,
            @DefaultValue("0") @PositiveOrZero int sendNowBelowRate,
            @NotNull @DefaultValue("500ms") Duration retryBackoff,
            @NotNull @DefaultValue("5s") Duration retryBackoffMax,
            @NotNull @DefaultValue("60s") Duration readerStartTimeout,

            @NotNull @DurationMin(millis = 10) @DefaultValue("1s")
            Duration commitInterval,

            @DefaultValue("4") @PositiveOrZero int batchesInFlight) {}

    /**
     * CPU time and memory one JavaScript codec call may use before its message is dead-lettered, the largest
     * script (UTF-8) a device type may register, and the CPU time its parse and top level may take, once per change.
     */
    public record Codecs(
            @NotNull @DefaultValue("100ms") Duration scriptTimeLimit,
            @NotNull @DefaultValue("32MB") DataSize scriptAllocationLimit,
            @NotNull @DefaultValue("256KB") DataSize scriptSizeLimit,
            @NotNull @DefaultValue("5s") Duration scriptCompileTimeLimit) {}
}
