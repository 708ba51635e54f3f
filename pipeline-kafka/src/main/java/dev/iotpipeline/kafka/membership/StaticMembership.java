package dev.iotpipeline.kafka.membership;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.config.ContainerCustomizer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Puts the instance id on each {@code @KafkaListener} container's consumers as {@code group.instance.id},
 * suffixed with the listener id (Spring adds {@code -n} per consumer thread when there are several).
 */
public final class StaticMembership {

    private static final Logger log = LoggerFactory.getLogger(StaticMembership.class);

    private StaticMembership() {}

    /** For {@code @KafkaListener} containers; with no id the containers keep dynamic membership. */
    public static ContainerCustomizer<Object, Object, ConcurrentMessageListenerContainer<Object, Object>> listeners(
            String instanceId) {
        return container -> {
            if (instanceId == null) {
                return;
            }
            var id = InstanceId.legal(instanceId + "-" + container.getListenerId());
            // A copy: the factory may hand the same Properties to every container it creates.
            var properties = new Properties();
            properties.putAll(container.getContainerProperties().getKafkaConsumerProperties());
            properties.setProperty(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id);
            container.getContainerProperties().setKafkaConsumerProperties(properties);
            log.info("Listener {} joins its group as static member {}", container.getListenerId(), id);
        };
    }
}
