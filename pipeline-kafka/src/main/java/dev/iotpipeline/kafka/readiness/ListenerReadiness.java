package dev.iotpipeline.kafka.readiness;

import dev.iotpipeline.kafka.ForwardingRebalanceListener;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.event.ConsumerStartingEvent;
import org.springframework.kafka.event.ConsumerStoppedEvent;
import org.springframework.kafka.event.KafkaEvent;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Readiness of a service's {@code @KafkaListener} consumers: not ready until every consumer has had its first
 * partition assignment, nor while one has had partitions revoked and not yet received its new assignment.
 *
 * <p>Spring Kafka calls the rebalance callbacks and publishes a consumer's starting and stopped events on that
 * consumer's own thread, so the thread identifies the consumer.
 */
public class ListenerReadiness implements HealthIndicator, ApplicationListener<KafkaEvent> {

    private enum Phase {
        STARTING,
        REBALANCING,
        ASSIGNED
    }

    private record ConsumerState(String listener, Phase phase, Set<TopicPartition> owned) {}

    private final Map<Thread, ConsumerState> consumers = new ConcurrentHashMap<>();
    private final Supplier<Collection<MessageListenerContainer>> containers;

    /** @param containers the containers whose consumers must all be assigned, e.g. the endpoint registry's */
    public ListenerReadiness(Supplier<Collection<MessageListenerContainer>> containers) {
        this.containers = containers;
    }

    public static ListenerReadiness of(KafkaListenerEndpointRegistry registry) {
        return new ListenerReadiness(registry::getListenerContainers);
    }

    @Override
    public void onApplicationEvent(KafkaEvent event) {
        if (event instanceof ConsumerStartingEvent starting) {
            var container = starting.getSource(MessageListenerContainer.class);
            consumers.put(
                    Thread.currentThread(), new ConsumerState(container.getListenerId(), Phase.STARTING, Set.of()));
        } else if (event instanceof ConsumerStoppedEvent) {
            consumers.remove(Thread.currentThread());
        }
    }

    /**
     * The rebalance listener to put on a container: it follows assignments, then calls {@code delegate} (the
     * container's own listener, or null), so a service keeps whatever listener it sets.
     */
    public ConsumerAwareRebalanceListener following(ConsumerRebalanceListener delegate) {
        return new ForwardingRebalanceListener(delegate) {

            @Override
            public void onPartitionsRevokedBeforeCommit(
                    Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                update(partitions, false);
                super.onPartitionsRevokedBeforeCommit(consumer, partitions);
            }

            @Override
            public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                update(partitions, false);
                super.onPartitionsLost(consumer, partitions);
            }

            @Override
            public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                update(partitions, true);
                super.onPartitionsAssigned(consumer, partitions);
            }
        };
    }

    private void update(Collection<TopicPartition> partitions, boolean assigned) {
        consumers.compute(Thread.currentThread(), (thread, state) -> {
            var owned = new HashSet<>(state == null ? Set.of() : state.owned());
            if (assigned) {
                owned.addAll(partitions);
            } else {
                owned.removeAll(partitions);
            }
            return new ConsumerState(
                    state == null ? thread.getName() : state.listener(),
                    assigned ? Phase.ASSIGNED : Phase.REBALANCING,
                    Set.copyOf(owned));
        });
    }

    @Override
    public Health health() {
        consumers.keySet().removeIf(thread -> !thread.isAlive());
        var builder = Health.up();
        int expected = 0;
        for (var container : containers.get()) {
            if (!container.isRunning()) {
                return Health.down()
                        .withDetail("reason", "listener " + container.getListenerId() + " is stopped")
                        .build();
            }
            expected += container instanceof ConcurrentMessageListenerContainer<?, ?> concurrent
                    ? concurrent.getContainers().size()
                    : 1;
        }
        var states = Map.copyOf(consumers);
        var details = new LinkedHashMap<String, Object>();
        int partitions = 0;
        String waiting = states.size() < expected ? "consumers starting" : null;
        for (var entry : states.entrySet()) {
            var state = entry.getValue();
            details.put(
                    entry.getKey().getName(),
                    Map.of(
                            "listener",
                            state.listener(),
                            "phase",
                            state.phase().name(),
                            "partitions",
                            state.owned().size()));
            partitions += state.owned().size();
            if (state.phase() == Phase.STARTING && waiting == null) {
                waiting = "waiting for the first partition assignment";
            } else if (state.phase() == Phase.REBALANCING) {
                waiting = "rebalancing: partitions revoked, not yet reassigned";
            }
        }
        builder.withDetail("consumers", details).withDetail("partitions", partitions);
        if (expected == 0) {
            return builder.outOfService()
                    .withDetail("reason", "no listener consumer running")
                    .build();
        }
        if (waiting != null) {
            return builder.outOfService().withDetail("reason", waiting).build();
        }
        if (partitions == 0) {
            builder.withDetail("note", "no partitions assigned: this group has more consumers than partitions");
        }
        return builder.build();
    }
}
