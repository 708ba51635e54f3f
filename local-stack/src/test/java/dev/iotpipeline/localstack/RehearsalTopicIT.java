package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A warm-up that a kill -9 cut short leaves its rehearsal topic behind; the next warm-up on the same broker deletes
 * it once it is old enough, and leaves a younger one (another instance may be warming up on it) alone.
 */
class RehearsalTopicIT {

    private final LocalStack stack = EmbeddedStack.shared();

    @Test
    void shouldDeleteTheRehearsalTopicsLeftBehindAndKeepTheRecentOnes() throws Exception {
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        var now = Instant.now();
        var leftBehind = RehearsalTopic.PREFIX + "it-"
                + now.minus(Duration.ofMinutes(11)).getEpochSecond() + "-0a0b0c0d0e0f";
        var recent =
                RehearsalTopic.PREFIX + "it-" + now.minus(Duration.ofMinutes(1)).getEpochSecond() + "-0f0e0d0c0b0a";
        try (var admin = Admin.create(config)) {
            admin.createTopics(List.of(new NewTopic(leftBehind, 1, (short) 1), new NewTopic(recent, 1, (short) 1)))
                    .all()
                    .get(10, TimeUnit.SECONDS);

            try (var topic = RehearsalTopic.create(
                    RehearsalTopic.freshName("it"), 1, (short) 1, Admin.create(config), name -> {})) {
                assertThat(topic.name()).startsWith(RehearsalTopic.PREFIX + "it-");
            }

            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(topics(admin)).doesNotContain(leftBehind).contains(recent));
            admin.deleteTopics(List.of(recent)).all().get(10, TimeUnit.SECONDS);
        }
    }

    private static Set<String> topics(Admin admin) throws Exception {
        return admin.listTopics().names().get(10, TimeUnit.SECONDS);
    }
}
