package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import java.time.Duration;
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
    void shouldOfferNumericFunctionsAndOtherMeasurementsThroughM() {
        assertThat(compile("abs(temperature - 20) > 5").raises(Map.of("temperature", 14.0)))
                .isTrue();
        assertThat(compile("abs(temperature - 20) > 5").raises(Map.of("temperature", 24.0)))
                .isFalse();
        assertThat(compile("max(temperature, externalTemperature) >= 30")
                        .raises(Map.of("temperature", 10.0, "externalTemperature", 30.0)))
                .isTrue();
        assertThat(compile("m['TempC_DS'] > 27").raises(Map.of("TempC_DS", 27.81)))
                .isTrue();
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
    void shouldRejectUnknownMeasurementsNamingThem() {
        assertThatThrownBy(() -> compile("temprature > 30 || humidty < 10"))
                .isInstanceOfSatisfying(InvalidExpressionException.class, e -> {
                    assertThat(e.unknownNames()).containsExactly("temprature", "humidty");
                    assertThat(e.position()).isZero();
                    assertThat(e.getMessage()).contains("m['name']");
                });
    }

    @Test
    void shouldRejectTypeErrorsUnknownFunctionsAndNonBooleanExpressions() {
        assertThatThrownBy(() -> compile("temperature > 'hot'")).hasMessageContaining("type error");
        assertThatThrownBy(() -> compile("exp(temperature) > 1")).hasMessageContaining("unknown function 'exp'");
        assertThatThrownBy(() -> compile("temperature + 1")).hasMessageContaining("true or false");
    }

    @Test
    void shouldGiveNoAccessToJavaTypes() {
        assertThatThrownBy(() -> compile("T(java.lang.Runtime).getRuntime() != null"))
                .isInstanceOf(InvalidExpressionException.class);
    }

    @Test
    void shouldParseDurationsAndRequireAFilterOnInactivityRules() {
        var held = CompiledRule.compile(
                new Rule("r", 1, "n", null, null, "temperature > 1", null, "PT5M", null, null, true, Instant.now()));
        assertThat(held.holdFor()).isEqualTo(Duration.ofMinutes(5));

        assertThatThrownBy(() -> CompiledRule.compile(new Rule(
                        "r",
                        1,
                        "n",
                        null,
                        Rule.RuleType.INACTIVITY,
                        null,
                        null,
                        null,
                        "PT10M",
                        null,
                        true,
                        Instant.now())))
                .hasMessageContaining("needs a filter");
        assertThatThrownBy(() -> CompiledRule.compile(new Rule(
                        "r",
                        1,
                        "n",
                        new RuleFilter("c", null, null),
                        Rule.RuleType.INACTIVITY,
                        null,
                        null,
                        null,
                        "ten minutes",
                        null,
                        true,
                        Instant.now())))
                .hasMessageContaining("ISO-8601");
    }

    private static CompiledRule compile(String condition) {
        return CompiledRule.compile(
                new Rule("r", 1, "n", null, null, condition, null, null, null, null, true, Instant.now()));
    }
}
