package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Writes rules to the compacted rules topic, the source of truth every instance's topology reads (its global rules
 * store), and applies each write here once Kafka has it, so a read right after the write sees it.
 */
public final class RuleRegistry {

    private final RuleSet rules;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Clock clock;

    public RuleRegistry(RuleSet rules, KafkaOperations<String, Object> kafka, Duration sendTimeout, Clock clock) {
        this.rules = rules;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.clock = clock;
    }

    /** Validates, writes and applies locally, so a read right after the write sees the change. */
    Rule save(String id, RuleRequest request) throws Exception {
        var rule = new Rule(
                id == null ? Ids.newId().toString() : id,
                Rule.SCHEMA_VERSION,
                request.name() == null ? "" : request.name(),
                request.filter(),
                request.type(),
                request.condition(),
                request.clearCondition(),
                request.holdFor(),
                request.inactiveFor(),
                request.severity(),
                request.enabled() == null || request.enabled(),
                Instant.now(clock));
        CompiledRule.compile(rule);
        write(rule.id(), rule);
        return rule;
    }

    void delete(String id) throws Exception {
        write(id, null);
    }

    /** Writes a change (null deletes), waits until Kafka has it, then applies it here. */
    private void write(String id, Rule rule) throws Exception {
        CompactedRegistry.send(kafka::send, PipelineTopic.RULES, id, rule, sendTimeout);
        rules.apply(id, rule);
    }
}
