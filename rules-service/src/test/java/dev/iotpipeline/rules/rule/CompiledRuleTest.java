package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Rule;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompiledRuleTest {

    @Test
    void shouldEvaluateBooleanCombinationsOfMeasurements() {
        var rule = compile("temperature > 30 && humidity < 40");

        assertThat(rule.raises(Map.of("temperature", 31.0, "humidity", 35.0))).isTrue();
        assertThat(rule.raises(Map.of("temperature", 31.0, "humidity", 45.0))).isFalse();
        assertThat(rule.clears(Map.of("temperature", 29.0, "humidity", 35.0))).isTrue();
    }

    @Test
    void shouldRejectAnExpressionThatDoesNotParseWithItsPosition() {
        assertThatThrownBy(() -> compile("temperature > > 30"))
                .isInstanceOfSatisfying(InvalidExpressionException.class, e -> {
                    assertThat(e.field()).isEqualTo("condition");
                    assertThat(e.position()).isGreaterThan(0);
                });
    }

    @Test
    void shouldGiveNoAccessToJavaTypes() {
        var rule = compile("T(java.lang.Runtime).getRuntime() != null");

        assertThat(rule.raises(Map.of("temperature", 1.0))).isFalse();
        assertThat(rule.clears(Map.of("temperature", 1.0))).isFalse();
    }

    private static CompiledRule compile(String condition) {
        return CompiledRule.compile(new Rule("r", 1, "n", null, condition, null, null, true, Instant.now()));
    }
}
