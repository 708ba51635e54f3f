package dev.iotpipeline.events;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * An alarm rule as stored in the compacted rules topic, keyed by id; a tombstone deletes it. A threshold
 * rule raises when {@code condition} holds (for at least {@code for}, an ISO-8601 duration, when given) and
 * clears when {@code clearCondition} holds (default: the condition no longer holds). An inactivity rule
 * raises when a matching device has sent nothing for {@code inactiveFor} and clears when it reports again.
 */
public record Rule(
        String id,
        int schemaVersion,
        String name,
        RuleFilter filter,
        RuleType type,
        String condition,
        String clearCondition,
        @JsonProperty("for") String holdFor,
        String inactiveFor,
        Severity severity,
        boolean enabled,
        Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;

    /** What makes a rule raise. */
    public enum RuleType {
        THRESHOLD,
        INACTIVITY
    }

    public Rule {
        filter = filter == null ? RuleFilter.ANY : filter;
        severity = severity == null ? Severity.MAJOR : severity;
        type = type == null ? RuleType.THRESHOLD : type;
    }
}
