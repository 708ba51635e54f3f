package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.junit.jupiter.api.Test;

/** The broker's warm-up completes whether or not its consumer got to commit, and leaves no group or topic behind. */
class BrokerWarmupIT {

    private final LocalStack stack = EmbeddedStack.shared();

    @Test
    void shouldProduceFetchAndCommitThenLeaveNothingBehind() throws Exception {
        var outcome = BrokerWarmup.run(stack.bootstrapServers(), Duration.ofSeconds(2));

        assertThat(outcome.completed()).as(outcome.message()).isTrue();
        assertThat(outcome.message()).contains("records produced, fetched and committed");
        assertNothingLeftBehind();
    }

    @Test
    void shouldCompleteWhenItsConsumerCommittedNothing() throws Exception {
        // With no time left no round runs, as when every poll of a slow start comes back empty: the group was never
        // created, and its deletion must not count as a failed warm-up (it printed a warning in ./pipeline run).
        var outcome = BrokerWarmup.run(stack.bootstrapServers(), Duration.ZERO);

        assertThat(outcome.completed()).as(outcome.message()).isTrue();
        assertNothingLeftBehind();
    }

    private void assertNothingLeftBehind() throws Exception {
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            assertThat(admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS))
                    .extracting(ConsumerGroupListing::groupId)
                    .doesNotContain(BrokerWarmup.GROUP);
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .noneMatch(name -> name.startsWith(RehearsalTopic.PREFIX + "broker"));
        }
    }
}
