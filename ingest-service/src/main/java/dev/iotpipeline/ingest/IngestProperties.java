package dev.iotpipeline.ingest;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Configuration of ingest-service under the {@code ingest} prefix. */
@Validated
@ConfigurationProperties("ingest")
public record IngestProperties(
        @Valid @NotNull @DefaultValue Kafka kafka,
        @Valid @NotNull @DefaultValue Limits limits,
        @Valid @NotNull @DefaultValue RateLimit rateLimit,
        @Valid @NotNull @DefaultValue Webhooks webhooks,
        @Valid @NotNull @DefaultValue Bench bench,
        @Valid @NotNull @DefaultValue DevicePath devicePath,
        @Valid @NotNull @DefaultValue Registry registry) {

    /**
     * How long a request may wait for Kafka before 503, how many uplinks may await an ack at once, and the layout
     * of uplinks.encoded: {@code retention} is how far back the decoder can be replayed. {@code readerStartTimeout}
     * bounds the wait for the device-types topic at start. A request that finds fewer than {@code sendNowBelow}
     * other uplinks awaiting an ack, or carries {@code sendNowFrom} uplinks or more, or comes while fewer than
     * {@code sendNowBelowRate} uplinks a second arrive (0, the default: never), has its uplinks sent at once; the
     * others wait up to the producer's {@code linger.ms} to share a produce request.
     */
    public record Kafka(
            @NotNull @DefaultValue("5s") Duration sendTimeout,
            @NotNull @DefaultValue("2s") Duration retryAfter,
            @DefaultValue("20000") @Positive int maxInFlight,
            @DefaultValue("1") @Positive int sendNowBelow,
            @DefaultValue("32") @Positive int sendNowFrom,
            @DefaultValue("0") @PositiveOrZero int sendNowBelowRate,
            @DefaultValue("6") @Positive int partitions,
            @DefaultValue("1") @Positive short replicationFactor,
            @NotNull @DefaultValue("7d") Duration retention,
            @NotNull @DefaultValue("30s") Duration readerStartTimeout,
            @Valid @NotNull @DefaultValue Circuit circuit) {}

    /**
     * The circuit in front of the producer: it opens after {@code failuresToOpen} consecutive failures that
     * mean Kafka is unreachable, or when a request waited {@code stallAfter} with no ack in that time and the
     * cluster does not answer a probe; it refuses at once while open (requests still waiting included), and closes
     * when a background probe (a metadata request with {@code probeTimeout}, every {@code probeInterval}) gets an
     * answer from the cluster. stallAfter plus probeTimeout bounds how long a request waits on a dead broker.
     */
    public record Circuit(
            @DefaultValue("1") @Positive int failuresToOpen,

            @NotNull @DurationMin(millis = 50) @DefaultValue("500ms")
            Duration probeInterval,

            @NotNull @DurationMin(millis = 1) @DefaultValue("500ms")
            Duration probeTimeout,

            @NotNull @DurationMin(millis = 50) @DefaultValue("200ms")
            Duration stallAfter) {}

    /** Size limits: per uplink payload and per batch (the request body is bounded by {@code iot.http.max-body-size}). */
    public record Limits(
            @DefaultValue("65536") @Positive int maxPayloadBytes,
            @DefaultValue("1000") @Positive int maxBatchSize) {}

    /** Per device key token buckets, counted in uplinks (a batch of 100 takes 100). */
    public record RateLimit(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("1000") @Positive double uplinksPerSecond,
            @DefaultValue("2000") @Positive long burst) {}

    /**
     * Device type for webhook uplinks whose path names none: network-server model or profile name
     * (TTS {@code version_ids.model_id}, ChirpStack {@code deviceInfo.deviceProfileName}) to device type.
     */
    public record Webhooks(@DefaultValue Map<String, String> deviceTypes) {}

    /**
     * Whether the device endpoints are answered by the lean path, before Spring Security's chain and Spring MVC
     * (the default), or only by the full MVC path, for comparing the two; and how many new connections the lean
     * path's warm-up opens at once, a request on each, as a fleet reconnecting to a restarted instance does (0: none).
     */
    public record DevicePath(
            @DefaultValue("true") boolean lean,
            @DefaultValue("512") @PositiveOrZero int warmupBurst) {}

    /**
     * The device registry: how long a rotated-out credential keeps working when the rotation names no overlap, how
     * many lines one import may hold (its body is bounded by {@code iot.http.max-import-size}) and how long an import
     * may wait for Kafka to take its changes.
     */
    public record Registry(
            @NotNull @DefaultValue("1h") Duration defaultOverlap,
            @DefaultValue("250000") @Positive int maxImportLines,
            @NotNull @DefaultValue("120s") Duration importTimeout) {}

    /** A Kafka-free 202 endpoint at /bench/noop, only for measuring the HTTP ceiling in benchmarks. */
    public record Bench(@DefaultValue("false") boolean noopEndpoint) {}
}
