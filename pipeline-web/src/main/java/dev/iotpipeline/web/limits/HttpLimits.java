package dev.iotpipeline.web.limits;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Request limits under {@code iot.http}, the same for every service: a body larger than {@code maxBodySize}
 * is refused with 413 before (or while) it is read. JSON documents are also bounded in nesting depth and
 * string and number length ({@code EventJson.READ_LIMITS}).
 */
@Validated
@ConfigurationProperties("iot.http")
public record HttpLimits(@NotNull @DefaultValue("1MB") DataSize maxBodySize) {}
