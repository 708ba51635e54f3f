package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;

/** Body of {@code POST /rules} and {@code PUT /rules/{id}}. */
record RuleRequest(String name, RuleFilter filter, String condition, String clearCondition, Severity severity,
        Boolean enabled) {
}
