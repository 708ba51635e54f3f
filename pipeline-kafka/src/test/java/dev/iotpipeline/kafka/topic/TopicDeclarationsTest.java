package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.topic.PipelineTopic.Owner;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

class TopicDeclarationsTest {

    @Test
    void shouldDeclareEachTopicWithItsOwnerOnlyAndTheOwnersRetention() {
        var byName = new HashMap<String, NewTopic>();
        var owners = new HashMap<String, Owner>();
        for (var owner : Owner.values()) {
            for (var topic : TopicDeclarations.declarations(
                    owner, 6, (short) 1, Map.of(PipelineTopic.ALARMS, Duration.ofDays(30)))) {
                assertThat(owners.put(topic.name(), owner))
                        .as("%s declared by one owner", topic.name())
                        .isNull();
                byName.put(topic.name(), topic);
            }
        }

        assertThat(byName.keySet())
                .containsExactlyInAnyOrderElementsOf(PipelineTopic.all().stream()
                        .map(PipelineTopic::topicName)
                        .toList());
        assertThat(owners).containsEntry("alarms", Owner.RULES).containsEntry("alarm-commands", Owner.NOTIFY);
        assertThat(byName.get("alarms").configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "2592000000");
        assertThat(byName.get("rules").numPartitions())
                .as("a registry keeps one partition")
                .isEqualTo(1);
        assertThat(byName.get("rules").configs())
                .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        assertThat(byName.get("data-units").numPartitions()).isEqualTo(6);
    }

    @Test
    void shouldDeclareATopicAServiceOnlyWritesWithoutTheOwnersConfiguration() {
        var declared =
                TopicDeclarations.declarations(Owner.NOTIFY, 6, (short) 1, Map.of(), PipelineTopic.EVENTS_DEAD_LETTER);

        assertThat(Arrays.stream(declared).map(NewTopic::name)).containsExactly("alarm-commands", "events.dead-letter");
        assertThat(declared[1].configs()).isNullOrEmpty();
    }
}
