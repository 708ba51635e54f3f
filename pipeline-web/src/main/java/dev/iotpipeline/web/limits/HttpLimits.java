package dev.iotpipeline.web.limits;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Request limits under {@code iot.http}, the same for every service: a body larger than {@code maxBodySize}
 * (a bulk import's, on a path ending in {@value #IMPORT_SUFFIX}: {@code maxImportSize}) is refused with 413 before
 * (or while) it is read. JSON documents are also bounded in nesting depth and string and number length
 * ({@code EventJson.READ_LIMITS}).
 */
@Validated
@ConfigurationProperties("iot.http")
public record HttpLimits(
        @NotNull @DefaultValue("1MB") DataSize maxBodySize,
        @NotNull @DefaultValue("128MB") DataSize maxImportSize) {

    public static final String IMPORT_SUFFIX = "/import";

    /** The limit of a request to {@code uri}. */
    public long limitOf(String uri) {
        return (uri != null && uri.endsWith(IMPORT_SUFFIX) ? maxImportSize : maxBodySize).toBytes();
    }
}
