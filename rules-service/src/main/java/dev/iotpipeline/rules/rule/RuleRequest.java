package dev.iotpipeline.rules.rule;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;

/** Body of {@code POST /rules} and {@code PUT /rules/{id}}. */
record RuleRequest(
        String name,
        RuleFilter filter,
        Rule.RuleType type,
        String condition,
        String clearCondition,
        @JsonProperty("for") String holdFor,
        String inactiveFor,
        Severity severity,
        Boolean enabled) {}
