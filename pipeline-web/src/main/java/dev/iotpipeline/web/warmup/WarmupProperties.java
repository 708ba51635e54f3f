package dev.iotpipeline.web.warmup;

import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The warm-up before readiness: on by default; each service runs its {@link Warmup}s in turn for up to
 * {@code rounds} rounds or {@code maxTime}, whichever ends first, then waits up to {@code settleMaxTime} for the JIT
 * compilers to finish what the rounds gave them (zero: not at all), then, if {@code collect}, collects the heap once.
 */
@Validated
@ConfigurationProperties("iot.warmup")
public record WarmupProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("20000") @Positive int rounds,
        @DefaultValue("2s") Duration maxTime,
        @DefaultValue("3s") Duration settleMaxTime,
        @DefaultValue("true") boolean collect) {}
