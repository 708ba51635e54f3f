package dev.iotpipeline.web.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Credentials under {@code iot.security}, the same for every service: each secret is the secret itself or
 * {@code sha256:<hex>} of it, so configuration need not hold it. {@code credentialsFile} adds more, one per
 * line ({@code admin <secret>}, {@code dashboard <channel,...> <secret>}, {@code device <channel> <secret>
 * [ratePerSecond]}), re-read within {@code credentialsFileCheckInterval} of a change, so secrets rotate without
 * a restart. {@code *} as a channel means every channel.
 */
@Validated
@ConfigurationProperties("iot.security")
public record SecurityProperties(
        @DefaultValue List<@NotBlank String> adminTokens,
        @DefaultValue List<@Valid DashboardToken> dashboardTokens,
        @DefaultValue List<@Valid DeviceKey> deviceKeys,
        Path credentialsFile,
        @NotNull @DefaultValue("5s") Duration credentialsFileCheckInterval) {

    /** A dashboard token and the channels it may read. */
    public record DashboardToken(
            @NotBlank String token, @NotEmpty List<@NotBlank String> channels) {}

    /** A device key bound to a channel; {@code ratePerSecond} overrides ingest's default rate limit for it. */
    public record DeviceKey(
            @NotBlank String channel,
            @NotBlank String key,
            @Positive Double ratePerSecond) {}
}
