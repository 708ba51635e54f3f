package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class RuleMetricsTest {

    @Test
    void shouldReportTheAlarmStateOfEveryTaskOfTheInstanceAndForgetAClosedOnesPart() {
        var registry = new SimpleMeterRegistry();
        var metrics = new RuleMetrics(registry);

        metrics.stateEntries("0_0", 3);
        metrics.stateEntries("0_1", 4);
        metrics.stateEntries("0_0", 5);

        assertThat(registry.get("rules.state.entries").gauge().value()).isEqualTo(9.0);

        metrics.closed("0_1");

        assertThat(registry.get("rules.state.entries").gauge().value()).isEqualTo(5.0);
    }
}
