package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.Rule;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology's second input: each change on the rules topic, in every instance, into the global rules store and
 * the compiled {@link RuleSet} the alarm processor evaluates; a tombstone deletes. Streams reads the topic whole
 * before it processes the first data unit.
 */
class RuleUpdates implements Processor<String, byte[], Void, Void> {

    private static final Logger log = LoggerFactory.getLogger(RuleUpdates.class);

    private final RuleSet rules;
    private KeyValueStore<String, Rule> store;

    RuleUpdates(RuleSet rules) {
        this.rules = rules;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(AlarmTopology.RULES_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null) {
            log.warn("Skipping a rules record without an id");
            return;
        }
        Rule rule = null;
        if (record.value() != null) {
            try {
                rule = PipelineTopic.RULES.read(record.value());
            } catch (RuntimeException e) {
                log.warn("Skipping rule {}: not a rule ({})", record.key(), e.getMessage());
                return;
            }
        }
        if (rule == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), rule);
        }
        // RuleSet.apply logs and leaves out a rule whose expression does not compile: one bad rule never stops
        // the global thread, and with it every rule after it.
        rules.apply(record.key(), rule);
    }
}
