package dev.iotpipeline.ingest;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Configuration of ingest-service under the {@code ingest} prefix. */
@Validated
@ConfigurationProperties("ingest")
public record IngestProperties(
        @DefaultValue List<@Valid ApiKey> apiKeys,
        @Valid @NotNull @DefaultValue Kafka kafka,
        @Valid @NotNull @DefaultValue Limits limits) {

    /**
     * A device key bound to a channel ({@code *} for every channel); {@code key} is the secret itself or
     * {@code sha256:<hex>} of it, so configuration need not hold the secret.
     */
    public record ApiKey(@NotBlank String channel, @NotBlank String key) {
    }

    /** How long a request may wait for Kafka before it is answered 503. */
    public record Kafka(@NotNull @DefaultValue("10s") Duration sendTimeout,
            @NotNull @DefaultValue("5s") Duration retryAfter,
            @DefaultValue("3") @Positive int partitions,
            @DefaultValue("1") @Positive short replicationFactor) {
    }

    /** Size limits per uplink. */
    public record Limits(@DefaultValue("65536") @Positive int maxPayloadBytes) {
    }
}
