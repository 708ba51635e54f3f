package dev.iotpipeline.kafka.topic;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The configuration of a consumer that reads by assignment, without a group, derived from a service's own Kafka
 * client configuration so that its connection settings (bootstrap servers, TLS, SASL, client tuning) reach every
 * reader the same way they reach the service's listeners.
 */
public final class ReaderProperties {

    /** Settings of a group member that a reader by assignment must not carry: it would join or commit for it. */
    private static final List<String> GROUP_SETTINGS = List.of(
            ConsumerConfig.GROUP_ID_CONFIG,
            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
            ConsumerConfig.GROUP_PROTOCOL_CONFIG,
            ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG,
            ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG,
            ConsumerConfig.CLIENT_ID_CONFIG);

    private ReaderProperties() {}

    /** Only the bootstrap servers: for tools run against an unsecured broker, such as the embedded one. */
    public static Map<String, Object> of(String bootstrapServers) {
        return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }

    /**
     * {@code client} (a consumer factory's or admin's configuration) without group membership and deserializers,
     * with auto-commit off and {@code clientId}; the caller passes its own deserializers to the consumer.
     */
    public static Map<String, Object> reader(Map<String, Object> client, String clientId) {
        var props = new HashMap<>(client);
        GROUP_SETTINGS.forEach(props::remove);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return props;
    }
}
