package dev.iotpipeline.events;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/** The one registry of Kafka topic names used by the pipeline. */
public enum PipelineTopic {
    UPLINKS_ENCODED("uplinks.encoded", false),
    DATA_UNITS("data-units", false),
    DEAD_LETTER("uplinks.dead-letter", false),
    /**
     * Records of data-units, alarms and alarm-commands that rules or notify's store writer can never
     * process, value unchanged, cause in {@link DeadLetterHeaders}.
     */
    EVENTS_DEAD_LETTER("events.dead-letter", false),
    ALARMS("alarms", false),
    /** Operator actions on alarms (acknowledge), keyed by device id like data-units, for rules-service. */
    ALARM_COMMANDS("alarm-commands", false),
    DEVICE_TYPES("device-types", true),
    RULES("rules", true);

    private final String topicName;
    private final boolean compacted;

    PipelineTopic(String topicName, boolean compacted) {
        this.topicName = topicName;
        this.compacted = compacted;
    }

    public String topicName() {
        return topicName;
    }

    public boolean compacted() {
        return compacted;
    }

    /** Registries are tiny and read whole by every instance, so one partition keeps them in order. */
    public NewTopic newTopic(int partitions, short replicationFactor) {
        var topic = new NewTopic(topicName, compacted ? 1 : partitions, replicationFactor);
        if (compacted) {
            topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        return topic;
    }

    @Override
    public String toString() {
        return topicName;
    }
}
