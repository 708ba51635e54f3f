package dev.iotpipeline.kafka;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.springframework.kafka.config.ContainerPostProcessor;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * The container of a listener that acknowledges its batches itself, later than it returns (the decoder's writes in
 * flight, the history writer's latest readings).
 */
public final class AcknowledgedBatches {

    private AcknowledgedBatches() {}

    /**
     * Offsets committed only as the listener acknowledges them, which needs the container's one consumer thread
     * (instances scale out instead); an idle event every {@code idle} while the stream pauses, for what is left to
     * acknowledge; the container's rebalance listener wrapped by {@code beforeRebalance}, so that pending work is
     * settled on the consumer thread before partitions are given up.
     */
    public static ContainerPostProcessor<Object, Object, AbstractMessageListenerContainer<Object, Object>> container(
            Duration idle, UnaryOperator<ConsumerRebalanceListener> beforeRebalance) {
        long idleMillis = idle.toMillis();
        return container -> {
            if (container instanceof ConcurrentMessageListenerContainer<?, ?> concurrent) {
                concurrent.setConcurrency(1);
            }
            var properties = container.getContainerProperties();
            properties.setAckMode(ContainerProperties.AckMode.MANUAL);
            properties.setIdleEventInterval(idleMillis);
            properties.setPollTimeout(Math.min(properties.getPollTimeout(), idleMillis));
            properties.setConsumerRebalanceListener(beforeRebalance.apply(properties.getConsumerRebalanceListener()));
        };
    }
}
