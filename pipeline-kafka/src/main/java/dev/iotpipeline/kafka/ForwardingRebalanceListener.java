package dev.iotpipeline.kafka;

import java.util.Collection;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;

/**
 * A container's rebalance listener that adds its own work and forwards every callback to the listener it wraps (the
 * container's own, or null), so that several concerns can each wrap what a container already has.
 */
public abstract class ForwardingRebalanceListener implements ConsumerAwareRebalanceListener {

    private final ConsumerRebalanceListener delegate;

    protected ForwardingRebalanceListener(ConsumerRebalanceListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (delegate instanceof ConsumerAwareRebalanceListener aware) {
            aware.onPartitionsRevokedBeforeCommit(consumer, partitions);
        } else if (delegate != null) {
            delegate.onPartitionsRevoked(partitions);
        }
    }

    @Override
    public void onPartitionsRevokedAfterCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (delegate instanceof ConsumerAwareRebalanceListener aware) {
            aware.onPartitionsRevokedAfterCommit(consumer, partitions);
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (delegate instanceof ConsumerAwareRebalanceListener aware) {
            aware.onPartitionsLost(consumer, partitions);
        } else if (delegate != null) {
            delegate.onPartitionsLost(partitions);
        }
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (delegate instanceof ConsumerAwareRebalanceListener aware) {
            aware.onPartitionsAssigned(consumer, partitions);
        } else if (delegate != null) {
            delegate.onPartitionsAssigned(partitions);
        }
    }
}
