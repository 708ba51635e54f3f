package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.web.warmup.Warmup;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Rule evaluation before readiness: data units read as the topology's serde reads them, matched against the rules
 * in force, and every matching rule's raise and clear conditions evaluated, plus a sample threshold rule, so the
 * expression engine is compiled whether or not rules exist yet. Nothing is forwarded or stored.
 */
final class RulesWarmup implements Warmup {

    private static final CompiledRule SAMPLE = CompiledRule.compile(new Rule(
            "warmup",
            Rule.SCHEMA_VERSION,
            "warm-up",
            RuleFilter.ANY,
            Rule.RuleType.THRESHOLD,
            "temperature > 30",
            "temperature < 28",
            null,
            null,
            Severity.MAJOR,
            true,
            Instant.EPOCH));

    private final RuleSet rules;

    RulesWarmup(RuleSet rules) {
        this.rules = rules;
    }

    @Override
    public String name() {
        return "rules";
    }

    @Override
    public void exercise(int round) {
        var now = Instant.now();
        var written = new DataUnit(
                new UUID(0x72756c65L, round),
                DataUnit.SCHEMA_VERSION,
                new UUID(0, round),
                "warmup",
                "em300th",
                "warmup-" + round % 1000,
                now,
                now,
                now,
                Map.of("temperature", 20.0 + round % 15, "humidity", 40.0 + round % 50, "battery", 3.6),
                Map.of());
        var unit = PipelineTopic.DATA_UNITS.read(EventJson.write(written));
        for (var rule : orSample(rules.matching(unit))) {
            if (!rule.inactivity()) {
                rule.raises(unit.measurements());
                rule.clears(unit.measurements());
            }
        }
    }

    private static List<CompiledRule> orSample(List<CompiledRule> matching) {
        return matching.isEmpty() ? List.of(SAMPLE) : matching;
    }
}
