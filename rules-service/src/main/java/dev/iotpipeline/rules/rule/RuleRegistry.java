package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.TopicTail;
import java.util.Map;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
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
    private final TopicTail tail;

    public RuleRegistry(RuleSet rules, KafkaOperations<String, Object> kafka, Map<String, Object> kafkaClient,
            Duration sendTimeout, Clock clock) {
        this.rules = rules;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.clock = clock;
        this.tail = new TopicTail(kafkaClient, PipelineTopic.RULES.topicName(), TopicTail.Start.BEGINNING,
                record -> rules.apply(record.key(),
                        record.value() == null ? null : EventJson.read(record.value(), Rule.class)));
    }

    public RuleRegistry start(Duration initialLoadTimeout) throws InterruptedException {
        tail.startReading();
        if (!tail.awaitCaughtUp(initialLoadTimeout)) {
            throw new IllegalStateException("rules topic not readable within " + initialLoadTimeout);
        }
        return this;
    }

    /** Validates, writes and applies locally, so a read right after the write sees the change. */
    Rule save(String id, RuleRequest request) throws Exception {
        var rule = new Rule(id == null ? Ids.newId().toString() : id, Rule.SCHEMA_VERSION,
                request.name() == null ? "" : request.name(), request.filter(), request.type(), request.condition(),
                request.clearCondition(), request.holdFor(), request.inactiveFor(), request.severity(),
                request.enabled() == null || request.enabled(), Instant.now(clock));
        CompiledRule.compile(rule);
        kafka.send(PipelineTopic.RULES.topicName(), rule.id(), rule).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        rules.apply(rule.id(), rule);
        return rule;
    }

    void delete(String id) throws Exception {
        kafka.send(PipelineTopic.RULES.topicName(), id, null).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        rules.apply(id, null);
    }

    @Override
    public void close() {
        tail.close();
    }
}
