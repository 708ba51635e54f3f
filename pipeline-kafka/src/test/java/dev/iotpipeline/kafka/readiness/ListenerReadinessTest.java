package dev.iotpipeline.kafka.readiness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.kafka.event.ConsumerStartingEvent;
import org.springframework.kafka.event.ConsumerStoppedEvent;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListenerContainer;

/** Each consumer's events and rebalance callbacks arrive on its own thread, as Spring Kafka delivers them. */
class ListenerReadinessTest {

    private static final TopicPartition P0 = new TopicPartition("uplinks.encoded", 0);
    private static final TopicPartition P1 = new TopicPartition("uplinks.encoded", 1);

    private final Container container = new Container();
    private final List<MessageListenerContainer> containers = new ArrayList<>(List.of(container));
    private final ListenerReadiness readiness = new ListenerReadiness(() -> containers);
    private final List<String> delegated = new ArrayList<>();
    private final ConsumerAwareRebalanceListener rebalance = readiness.following(new ConsumerRebalanceListener() {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            delegated.add("revoked " + partitions.size());
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            delegated.add("assigned " + partitions.size());
        }
    });
    private final ExecutorService consumerThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        consumerThread.shutdownNow();
    }

    @Test
    void shouldNotBeReadyBeforeTheConsumerStarted() {
        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    }

    @Test
    void shouldBeReadyOnlyOnceTheFirstAssignmentArrived() {
        onConsumer(() -> readiness.onApplicationEvent(new ConsumerStartingEvent(container, container)));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);

        onConsumer(() -> rebalance.onPartitionsAssigned(null, List.of(P0, P1)));

        var health = readiness.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("partitions", 2);
    }

    @Test
    void shouldNotBeReadyWhileARebalanceHasRevokedPartitionsNotYetReassigned() {
        onConsumer(() -> readiness.onApplicationEvent(new ConsumerStartingEvent(container, container)));
        onConsumer(() -> rebalance.onPartitionsAssigned(null, List.of(P0, P1)));

        onConsumer(() -> rebalance.onPartitionsRevokedBeforeCommit(null, List.of(P0, P1)));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(readiness.health().getDetails().get("reason").toString()).contains("rebalancing");

        onConsumer(() -> rebalance.onPartitionsAssigned(null, List.of(P1)));
        assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
        assertThat(readiness.health().getDetails()).containsEntry("partitions", 1);
        assertThat(delegated)
                .as("the container's own listener still hears everything")
                .containsExactly("assigned 2", "revoked 2", "assigned 1");
    }

    @Test
    void shouldBeReadyWithoutPartitionsWhenTheGroupHasMoreConsumersThanPartitions() {
        onConsumer(() -> readiness.onApplicationEvent(new ConsumerStartingEvent(container, container)));
        onConsumer(() -> rebalance.onPartitionsAssigned(null, List.of()));

        var health = readiness.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails().get("note").toString()).contains("more consumers than partitions");
    }

    @Test
    void shouldForgetAStoppedConsumerAndReportAStoppedContainer() {
        onConsumer(() -> readiness.onApplicationEvent(new ConsumerStartingEvent(container, container)));
        onConsumer(() -> rebalance.onPartitionsAssigned(null, List.of(P0)));
        onConsumer(() -> readiness.onApplicationEvent(
                new ConsumerStoppedEvent(container, container, ConsumerStoppedEvent.Reason.NORMAL)));
        assertThat(readiness.health().getStatus()).as("its consumer is gone").isEqualTo(Status.OUT_OF_SERVICE);

        container.running = false;
        assertThat(readiness.health().getStatus()).isEqualTo(Status.DOWN);
    }

    private void onConsumer(Runnable action) {
        try {
            consumerThread.submit(action).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A running listener container with one consumer. */
    private static final class Container implements MessageListenerContainer {

        volatile boolean running = true;

        @Override
        public String getListenerId() {
            return "decoder";
        }

        @Override
        public Collection<TopicPartition> getAssignedPartitions() {
            return List.of();
        }

        @Override
        public void setupMessageListener(Object messageListener) {}

        @Override
        public Map<String, Map<MetricName, ? extends Metric>> metrics() {
            return Map.of();
        }

        @Override
        public void start() {}

        @Override
        public void stop() {}

        @Override
        public boolean isRunning() {
            return running;
        }
    }
}
