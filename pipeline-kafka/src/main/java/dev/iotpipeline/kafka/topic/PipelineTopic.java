package dev.iotpipeline.kafka.topic;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The one registry of the pipeline's Kafka topics: each topic's name, the type of its values and their serde
 * (keys are device ids, or a registry entry's name, as strings), the service that owns it (creates it with its
 * retention; others only make sure it exists before they read it) and whether it is compacted.
 *
 * @param <V> what a record's value holds; {@code byte[]} for dead-letter topics, which keep the failed record as
 *     it was
 */
public final class PipelineTopic<V> {

    /** The service that owns a topic: it declares the topic's retention, and the event type is its to change. */
    public enum Owner {
        INGEST,
        DECODER,
        RULES,
        NOTIFY
    }

    public static final PipelineTopic<EncodedUplink> UPLINKS_ENCODED =
            new PipelineTopic<>("uplinks.encoded", EncodedUplink.class, Owner.INGEST, false);
    public static final PipelineTopic<DataUnit> DATA_UNITS =
            new PipelineTopic<>("data-units", DataUnit.class, Owner.DECODER, false);
    public static final PipelineTopic<byte[]> DEAD_LETTER =
            new PipelineTopic<>("uplinks.dead-letter", byte[].class, Owner.DECODER, false);
    /**
     * Records of data-units, alarms and alarm-commands that rules or notify's store writer can never process,
     * value unchanged, cause in {@link DeadLetterHeaders}.
     */
    public static final PipelineTopic<byte[]> EVENTS_DEAD_LETTER =
            new PipelineTopic<>("events.dead-letter", byte[].class, Owner.RULES, false);

    public static final PipelineTopic<AlarmEvent> ALARMS =
            new PipelineTopic<>("alarms", AlarmEvent.class, Owner.RULES, false);
    /** Operator actions on alarms (acknowledge), keyed by device id like data-units, for rules-service. */
    public static final PipelineTopic<AlarmCommand> ALARM_COMMANDS =
            new PipelineTopic<>("alarm-commands", AlarmCommand.class, Owner.NOTIFY, false);

    public static final PipelineTopic<DeviceType> DEVICE_TYPES =
            new PipelineTopic<>("device-types", DeviceType.class, Owner.DECODER, true);
    public static final PipelineTopic<Rule> RULES = new PipelineTopic<>("rules", Rule.class, Owner.RULES, true);
    /** The device registry, keyed by {@link RegisteredDevice#key}: what ingest checks devices' credentials against. */
    public static final PipelineTopic<RegisteredDevice> DEVICES =
            new PipelineTopic<>("devices", RegisteredDevice.class, Owner.INGEST, true);
    /** Whether a channel accepts devices it has no registration for, keyed by channel. */
    public static final PipelineTopic<ChannelPolicy> CHANNEL_POLICIES =
            new PipelineTopic<>("channel-policies", ChannelPolicy.class, Owner.INGEST, true);

    private static final List<PipelineTopic<?>> ALL = List.of(
            UPLINKS_ENCODED,
            DATA_UNITS,
            DEAD_LETTER,
            EVENTS_DEAD_LETTER,
            ALARMS,
            ALARM_COMMANDS,
            DEVICE_TYPES,
            RULES,
            DEVICES,
            CHANNEL_POLICIES);

    private final String topicName;
    private final Class<V> valueType;
    private final Owner owner;
    private final boolean compacted;
    /** Built once: {@link #read} runs for every record a consumer handles. */
    private final Serde<V> valueSerde;

    private final Deserializer<V> reader;

    @SuppressWarnings("unchecked")
    private PipelineTopic(String topicName, Class<V> valueType, Owner owner, boolean compacted) {
        this.topicName = topicName;
        this.valueType = valueType;
        this.owner = owner;
        this.compacted = compacted;
        this.valueSerde = valueType == byte[].class ? (Serde<V>) Serdes.ByteArray() : new EventSerde<>(valueType);
        this.reader = valueSerde.deserializer();
    }

    /** Every topic, in the order of the data path. */
    public static List<PipelineTopic<?>> all() {
        return ALL;
    }

    public String topicName() {
        return topicName;
    }

    public Class<V> valueType() {
        return valueType;
    }

    public Owner owner() {
        return owner;
    }

    public boolean compacted() {
        return compacted;
    }

    /** The value serde: the events' JSON ({@link EventJson}), or the bytes as they are for a dead-letter topic. */
    public Serde<V> valueSerde() {
        return valueSerde;
    }

    /** A record value of this topic; throws {@link tools.jackson.core.JacksonException} on one that is not. */
    public V read(byte[] value) {
        return reader.deserialize(topicName, value);
    }

    /**
     * A record of this topic, keyed by {@code key} (the device id, or a registry entry's name): the value's type is
     * the topic's, checked where the record is made; the producers' one value serializer ({@link EventSerializer})
     * writes it.
     */
    public ProducerRecord<String, Object> record(String key, V value) {
        return new ProducerRecord<>(topicName, key, value);
    }

    /** Registries are read whole by every instance, so one partition keeps each one's changes in order. */
    public NewTopic newTopic(int partitions, short replicationFactor) {
        var topic = new NewTopic(topicName, compacted ? 1 : partitions, replicationFactor);
        if (compacted) {
            topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        return topic;
    }

    /**
     * As {@link #newTopic(int, short)}, keeping records for {@code retention} (a topic config the owning service
     * declares; Kafka deletes whole log segments once all their records are older).
     */
    public NewTopic newTopic(int partitions, short replicationFactor, Duration retention) {
        var topic = newTopic(partitions, replicationFactor);
        var configs = new HashMap<String, String>(topic.configs() == null ? Map.of() : topic.configs());
        configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.toMillis()));
        return topic.configs(configs);
    }

    @Override
    public String toString() {
        return topicName;
    }
}
