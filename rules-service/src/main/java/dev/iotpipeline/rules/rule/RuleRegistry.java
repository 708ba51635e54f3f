package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Writes rules to the compacted rules topic and keeps the {@link RuleSet} in step with it; the topic is the
 * source of truth, so every instance converges on the same rules.
 */
public final class RuleRegistry implements AutoCloseable {

    private final RuleSet rules;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Clock clock;
    private final CompactedRegistry<Rule> registry;

    public RuleRegistry(
            RuleSet rules,
            KafkaOperations<String, Object> kafka,
            Map<String, Object> kafkaClient,
            Duration sendTimeout,
            Clock clock) {
        this.rules = rules;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.clock = clock;
        this.registry = new CompactedRegistry<>(kafkaClient, PipelineTopic.RULES, rules::apply);
    }

    public RuleRegistry start(Duration initialLoadTimeout) throws InterruptedException {
        registry.startOrFail(initialLoadTimeout);
        return this;
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
        registry.write(kafka::send, rule.id(), rule, sendTimeout);
        return rule;
    }

    void delete(String id) throws Exception {
        registry.write(kafka::send, id, null, sendTimeout);
    }

    @Override
    public void close() {
        registry.close();
    }
}
