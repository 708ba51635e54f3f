package dev.iotpipeline.decoder.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.kafka.topic.ReaderProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry's view without a broker: what it does with a change it wrote itself and then reads back. */
class DeviceTypeRegistryTest {

    private static final String SCRIPT = "function decodeUplink(input) { return { data: { t: input.bytes[0] } }; }";

    private final Codecs codecs = new Codecs(Duration.ofMillis(200));

    @Test
    void aChangeWrittenHereKeepsTheCodecPutBuiltWhenItComesBackFromTheTopic() {
        try (var registry = new DeviceTypeRegistry(ReaderProperties.of("127.0.0.1:1"), codecs)) {
            var type = new DeviceType(
                    "js",
                    DeviceType.SCHEMA_VERSION,
                    DeviceType.JAVASCRIPT,
                    SCRIPT,
                    Map.of(),
                    null,
                    Instant.parse("2026-11-23T00:00:00Z"));
            var compiled = codecs.resolve(type);

            registry.apply("js", type, compiled);
            registry.apply("js", type);

            assertThat(registry.resolve("js")).hasValueSatisfying(resolved -> {
                assertThat(resolved.codec()).isSameAs(compiled);
                assertThat(resolved.brokenReason()).isNull();
            });
        }
    }

    @Test
    void aChangedTypeFromTheTopicIsBuiltAgain() {
        try (var registry = new DeviceTypeRegistry(ReaderProperties.of("127.0.0.1:1"), codecs)) {
            var first = new DeviceType(
                    "js",
                    DeviceType.SCHEMA_VERSION,
                    DeviceType.JAVASCRIPT,
                    SCRIPT,
                    Map.of(),
                    null,
                    Instant.parse("2026-11-23T00:00:00Z"));
            var compiled = codecs.resolve(first);
            registry.apply("js", first, compiled);

            registry.apply(
                    "js",
                    new DeviceType(
                            "js",
                            DeviceType.SCHEMA_VERSION,
                            DeviceType.JAVASCRIPT,
                            SCRIPT,
                            Map.of(),
                            "changed elsewhere",
                            Instant.parse("2026-11-23T00:01:00Z")));

            assertThat(registry.resolve("js").orElseThrow().codec())
                    .isNotSameAs(compiled)
                    .isNotNull();
        }
    }
}
