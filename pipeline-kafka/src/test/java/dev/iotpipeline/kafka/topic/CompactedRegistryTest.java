package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Rule;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class CompactedRegistryTest {

    private final HashMap<String, Rule> applied = new HashMap<>();
    private final HashMap<String, Object> sent = new HashMap<>();

    /** Never started: the writes do not need the topic to be read. */
    private final CompactedRegistry<Rule> registry =
            new CompactedRegistry<>(ReaderProperties.of("127.0.0.1:1"), PipelineTopic.RULES, (key, rule) -> {
                if (rule == null) {
                    applied.remove(key);
                } else {
                    applied.put(key, rule);
                }
            });

    @Test
    void shouldApplyAWriteHereOnceKafkaHasIt() throws Exception {
        var rule = new Rule("r1", 1, "hot", null, null, "temperature > 30", null, null, null, null, true, null);

        registry.write(
                record -> {
                    assertThat(record.topic()).isEqualTo("rules");
                    sent.put(record.key(), record.value());
                    return CompletableFuture.completedFuture(null);
                },
                "r1",
                rule,
                Duration.ofSeconds(1));
        assertThat(sent).containsEntry("r1", rule);
        assertThat(applied).containsEntry("r1", rule);

        registry.write(record -> CompletableFuture.completedFuture(null), "r1", null, Duration.ofSeconds(1));
        assertThat(applied).isEmpty();
    }

    @Test
    void shouldNotApplyAWriteKafkaRefused() {
        var rule = new Rule("r2", 1, "cold", null, null, "temperature < 0", null, null, null, null, true, null);

        assertThatThrownBy(() -> registry.write(
                        record -> CompletableFuture.failedFuture(new IllegalStateException("broker away")),
                        "r2",
                        rule,
                        Duration.ofSeconds(1)))
                .isInstanceOf(ExecutionException.class);
        assertThat(applied).isEmpty();
    }

    @Test
    void shouldOnlyServeCompactedTopics() {
        assertThatThrownBy(() -> new CompactedRegistry<>(
                        ReaderProperties.of("127.0.0.1:1"), PipelineTopic.DATA_UNITS, (key, unit) -> {}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
