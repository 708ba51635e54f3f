package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.kafka.metrics.HopTimers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decodes by device type, decode latency (from 100 ns: built-in codecs take well under a microsecond), and
 * dead letters by cause (codec timeouts among them); consumer lag comes from the Kafka client metrics.
 */
final class DecoderMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> decoded = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLetters = new ConcurrentHashMap<>();
    private final Timer latency;
    private final HopTimers hops;

    DecoderMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.hops = new HopTimers(registry);
        this.latency = Timer.builder("decoder.decode")
                .description("Time to decode and map one uplink")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100))
                .maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
    }

    Timer latency() {
        return latency;
    }

    /** decoder-poll: the uplink's record written at ingest to this poll; decoder-publish: poll to data-units ack. */
    HopTimers hops() {
        return hops;
    }

    void decoded(String deviceType) {
        decoded.computeIfAbsent(
                        deviceType,
                        t -> Counter.builder("decoder.data.units")
                                .tag("deviceType", t)
                                .description("Uplinks decoded into data units")
                                .register(registry))
                .increment();
    }

    void deadLettered(DeadLetterCause cause) {
        deadLetters
                .computeIfAbsent(
                        cause.tag(),
                        c -> Counter.builder("decoder.dead.letters")
                                .tag("cause", c)
                                .description("Uplinks sent to the dead-letter topic")
                                .register(registry))
                .increment();
    }
}
