package dev.iotpipeline.notify;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Configuration of notify-service under the {@code notify} prefix. */
@Validated
@ConfigurationProperties("notify")
public record NotifyProperties(
        @Valid @NotNull @DefaultValue WebSocket websocket,
        @Valid @NotNull @DefaultValue History history,
        @Valid @NotNull @DefaultValue Kafka kafka) {

    /**
     * Per-session bounds: a slow client loses its own oldest messages beyond {@code maxQueuedMessages}, never
     * delays others, and is closed with 1013 when it stays behind for {@code slowClientCloseAfter}. Sessions are
     * pinged every {@code heartbeatInterval} and closed when silent for {@code idleTimeout}. {@code resumeWindow}
     * events per stream are remembered for exact {@code since} resumption; a replay may hold up to
     * {@code maxReplayBuffer} live events while it runs, and at most {@code concurrentReplays} run at once.
     * A client message larger than {@code maxMessageBytes} closes the session (1009); a connection holds at most
     * {@code maxSubscriptionsPerConnection} subscriptions, and one credential at most
     * {@code maxConnectionsPerCredential} connections per instance (the next is closed with 1008).
     */
    public record WebSocket(
            @DefaultValue("1000") @Positive int maxQueuedMessages,
            @NotNull @DefaultValue("10s") Duration slowClientCloseAfter,
            @NotNull @DefaultValue("25s") Duration heartbeatInterval,
            @NotNull @DefaultValue("90s") Duration idleTimeout,
            @DefaultValue("500000") @Positive int resumeWindow,
            @DefaultValue("100000") @Positive int maxReplayBuffer,
            @DefaultValue("8") @Positive int concurrentReplays,
            @DefaultValue("65536") @Positive int maxMessageBytes,
            @DefaultValue("100") @Positive int maxSubscriptionsPerConnection,
            @DefaultValue("10000") @Positive int maxConnectionsPerCredential) {}

    /**
     * History query limits, and how long history lasts: data units are dropped a whole day's partition at a time
     * once the day is older than {@code retention}, cleared alarms once unchanged for {@code alarmRetention} (an
     * active alarm is never deleted); {@code 0} keeps them forever. Maintenance (partitions created
     * {@code partitionsAhead} days ahead, retention) runs at start and every {@code maintenanceInterval}. An
     * aggregate reads the rows received up to {@code aggregateLateness} after its {@code to}. The store writer
     * waits {@code writeLinger} after a batch of fewer than {@code writeLingerBelow} records, so under a steady
     * flow a transaction holds more than one data unit ({@code 0} writes each poll at once). Each device's latest
     * reading ({@code GET /devices}, {@code /data-units/latest}) is written at most {@code latestInterval} after its
     * data unit is stored, at once when the stream pauses, so a device heard often moves it once per interval
     * instead of once per transaction ({@code 0}: with every transaction).
     */
    public record History(
            @DefaultValue("100") @Positive int defaultLimit,
            @DefaultValue("1000") @Positive int maxLimit,
            @NotNull @DefaultValue("90d") Duration retention,
            @NotNull @DefaultValue("365d") Duration alarmRetention,
            @DefaultValue("3") @Positive int partitionsAhead,
            @NotNull @DefaultValue("1h") Duration maintenanceInterval,
            @DefaultValue("10000") @Positive int maxBuckets,
            @NotNull @DefaultValue("1d") Duration aggregateLateness,
            @NotNull @DefaultValue("20ms") Duration writeLinger,
            @DefaultValue("500") @Positive int writeLingerBelow,
            @NotNull @DefaultValue("1s") Duration latestInterval) {}

    /**
     * Topic layout for topics this service reads, and the store writer's retry pace: while the database is
     * away a batch is retried after {@code retryBackoff}, doubling up to {@code retryBackoffMax}, without limit.
     * {@code readerStartTimeout} bounds how long the start may take to position the live feed.
     */
    public record Kafka(
            @DefaultValue("6") @Positive int partitions,
            @DefaultValue("1") @Positive short replicationFactor,
            @NotNull @DefaultValue("500ms") Duration retryBackoff,
            @NotNull @DefaultValue("5s") Duration retryBackoffMax,
            @NotNull @DefaultValue("60s") Duration readerStartTimeout) {}
}
