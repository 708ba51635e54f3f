package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.RegisteredDevice;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

class PipelineTopicTest {

    @Test
    void shouldNameEveryTopicOnceWithItsOwnerAndValueType() {
        assertThat(PipelineTopic.all())
                .extracting(PipelineTopic::topicName)
                .doesNotHaveDuplicates()
                .contains(
                        "uplinks.encoded",
                        "data-units",
                        "uplinks.dead-letter",
                        "events.dead-letter",
                        "alarms",
                        "alarm-commands",
                        "device-types",
                        "rules",
                        "devices",
                        "channel-policies");
        assertThat(PipelineTopic.all()).allSatisfy(topic -> {
            assertThat(topic.owner()).isNotNull();
            assertThat(topic.valueType()).isNotNull();
        });
        assertThat(PipelineTopic.DATA_UNITS.owner()).isEqualTo(PipelineTopic.Owner.DECODER);
        assertThat(PipelineTopic.ALARMS.owner()).isEqualTo(PipelineTopic.Owner.RULES);
        assertThat(PipelineTopic.DEVICES.owner()).isEqualTo(PipelineTopic.Owner.INGEST);
        assertThat(PipelineTopic.DEVICES.compacted()).isTrue();
    }

    @Test
    void shouldReadARegisteredDeviceWithItsHashedCredentials() {
        var secret = new RegisteredDevice.Secret(
                "0123456789ab", "0123456789ab".repeat(5) + "cdef", Instant.parse("2026-11-27T00:00:00Z"), null);
        var device = new RegisteredDevice(
                "demo",
                "sensor-1",
                RegisteredDevice.SCHEMA_VERSION,
                "lht65",
                Map.of("floor", "3"),
                true,
                List.of(secret),
                Instant.parse("2026-11-27T00:00:01Z"));

        var read = PipelineTopic.DEVICES.read(
                PipelineTopic.DEVICES.valueSerde().serializer().serialize("devices", device));

        assertThat(read).isEqualTo(device);
        assertThat(read.key()).isEqualTo("demo/sensor-1");
        assertThat(secret.validAt(Instant.parse("2030-01-01T00:00:00Z"))).isTrue();
    }

    @Test
    void shouldReadItsOwnEventsAndKeepDeadLettersAsTheyAre() {
        var unit = new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "c",
                "em300th",
                "d",
                Instant.EPOCH,
                Instant.EPOCH,
                Instant.EPOCH,
                Map.of("temperature", 21.5),
                Map.of());
        var bytes = PipelineTopic.DATA_UNITS.valueSerde().serializer().serialize("data-units", unit);

        assertThat(PipelineTopic.DATA_UNITS.read(bytes)).isEqualTo(unit);
        assertThat(PipelineTopic.DEAD_LETTER.read(new byte[] {1, 2})).containsExactly(1, 2);
        assertThat(PipelineTopic.RULES.read(null)).as("a tombstone").isNull();
        assertThatThrownBy(() -> PipelineTopic.ALARMS.read("{not json".getBytes()))
                .isInstanceOf(tools.jackson.core.JacksonException.class);
    }

    @Test
    void shouldDeclareRegistriesCompactedInOnePartitionAndRetentionWhenGiven() {
        var rules = PipelineTopic.RULES.newTopic(6, (short) 3);
        var alarms = PipelineTopic.ALARMS.newTopic(6, (short) 3, Duration.ofDays(30));

        assertThat(rules.numPartitions()).isEqualTo(1);
        assertThat(rules.configs())
                .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(alarms.numPartitions()).isEqualTo(6);
        assertThat(alarms.configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "2592000000");
    }
}
