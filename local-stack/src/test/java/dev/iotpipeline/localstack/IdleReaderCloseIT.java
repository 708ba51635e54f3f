package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.topic.ReaderProperties;
import dev.iotpipeline.kafka.topic.TopicTail;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A reader that follows an idle topic has a fetch held at the broker for seconds; closing it must not wait for that
 * fetch, or every warm-up, replay and stop that closes a reader waits with it (notify's warm-up waited 2 s).
 */
class IdleReaderCloseIT {

    private final LocalStack stack = EmbeddedStack.shared();

    @Test
    void closingAReaderOfAnIdleTopicDoesNotWaitForItsHeldFetch() throws Exception {
        var topic = "idle-reader-close-" + System.nanoTime();
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(10, TimeUnit.SECONDS);
            var tail = new TopicTail(
                            ReaderProperties.of(stack.bootstrapServers()), topic, TopicTail.Start.END, record -> {})
                    .startReading();
            assertThat(tail.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
            // Long enough for the follow loop's next fetch to reach the broker and be held there.
            Thread.sleep(1000);

            long started = System.nanoTime();
            tail.close();
            var took = Duration.ofNanos(System.nanoTime() - started);

            // The fetch is held up to 5 s and the old close waited its 2 s bound for it; closing itself takes ms.
            assertThat(took).isLessThan(Duration.ofMillis(1500));
            admin.deleteTopics(List.of(topic)).all().get(10, TimeUnit.SECONDS);
        }
    }
}
