package dev.iotpipeline.events;

import java.time.Instant;

/** An alarm rule as stored in the compacted rules topic, keyed by id; a tombstone deletes it. */
public record Rule(
        String id,
        int schemaVersion,
        String name,
        RuleFilter filter,
        String condition,
        String clearCondition,
        Severity severity,
        boolean enabled,
        Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;

    public Rule {
        filter = filter == null ? RuleFilter.ANY : filter;
        severity = severity == null ? Severity.MAJOR : severity;
    }
}
