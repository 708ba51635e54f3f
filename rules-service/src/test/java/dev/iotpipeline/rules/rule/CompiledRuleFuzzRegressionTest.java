package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.Severity;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conditions CompiledRulePropertiesTest found, shrunk; each is now refused with its field and position. */
class CompiledRuleFuzzRegressionTest {

    @Test
    void shouldRefuseBracketsNestedBeyondTheLimitInsteadOfOverflowingTheStack() {
        // Was: StackOverflowError from the SpEL parser (a 500), at about 800 levels.
        var deep = "(".repeat(1000) + "temperature > 1" + ")".repeat(1000);

        assertThatThrownBy(() -> compile(deep))
                .isExactlyInstanceOf(InvalidExpressionException.class)
                .satisfies(e ->
                        assertThat(((InvalidExpressionException) e).position()).isEqualTo(CompiledRule.MAX_DEPTH));
        assertThat(compile("(".repeat(CompiledRule.MAX_DEPTH) + "temperature > 1" + ")".repeat(CompiledRule.MAX_DEPTH))
                        .raises(Map.of("temperature", 2.0)))
                .isTrue();
        assertThat(compile("m['(((((((((('] > 1").raises(Map.of("((((((((((", 2.0)))
                .isTrue();
    }

    @Test
    void shouldRefuseATreeTooDeepToEvaluateSafely() {
        assertThatThrownBy(() -> compile("!".repeat(3200) + "(temperature > 1)"))
                .isExactlyInstanceOf(InvalidExpressionException.class)
                .hasMessageContaining("levels deep");
        assertThat(compile("!!(temperature > 1)").raises(Map.of("temperature", 2.0)))
                .isTrue();
    }

    @Test
    void shouldRefuseWhatTheSpelParserAssertsOnInsteadOfThrowingIllegalArgument() {
        // Was: IllegalArgumentException "Operand must not be null" from SpEL's parser.
        assertThatThrownBy(() -> compile("abs(,1) > 0"))
                .isExactlyInstanceOf(InvalidExpressionException.class)
                .hasMessageContaining("not an expression");
        assertThatThrownBy(() -> compile("min(1,,2) > 0")).isExactlyInstanceOf(InvalidExpressionException.class);
    }

    @Test
    void shouldRefuseAssignmentsWhichWroteIntoTheMeasurements() {
        // Was: accepted, and evaluating it put temperature = 99 into the measurement map it was given.
        for (var condition :
                new String[] {"!(m['temperature'] = 99)", "!(temperature = 5)", "temperature++ > 1", "--temperature > 1"
                }) {
            assertThatThrownBy(() -> compile(condition))
                    .as(condition)
                    .isExactlyInstanceOf(InvalidExpressionException.class)
                    .hasMessageContaining("assignment is not allowed");
        }
        var measurements = new HashMap<>(Map.of("temperature", 20.0));
        assertThat(compile("m['temperature'] > 1").raises(measurements)).isTrue();
        assertThat(measurements).containsExactly(Map.entry("temperature", 20.0));
    }

    private static CompiledRule compile(String condition) {
        return CompiledRule.compile(new Rule(
                "r",
                1,
                "r",
                null,
                Rule.RuleType.THRESHOLD,
                condition,
                null,
                null,
                null,
                Severity.MAJOR,
                true,
                Instant.EPOCH));
    }
}
