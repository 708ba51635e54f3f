package dev.iotpipeline.kafka.membership;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;

/**
 * The stable identity of one service instance, used as its consumers' {@code group.instance.id} (static
 * membership: a restarted instance takes its partitions back at once instead of after the session timeout).
 */
public final class InstanceId {

    /** Explicit id; {@code IOT_INSTANCE_ID} in the environment. */
    public static final String PROPERTY = "iot.instance-id";
    /** {@code false} turns static membership off ({@code IOT_STATIC_MEMBERSHIP}). */
    public static final String ENABLED = "iot.static-membership";

    private InstanceId() {}

    /**
     * {@value #PROPERTY} if set; else {@code <spring.application.name>-<host>-<server.port>} when the port is
     * fixed (stable across restarts, distinct between instances on one host); else none. With a random port
     * (0) there is no stable id, and guessing one would let two instances fence each other, so consumers
     * then use dynamic membership, as they do when {@value #ENABLED} is false.
     */
    public static Optional<String> resolve(PropertyResolver environment) {
        if (!environment.getProperty(ENABLED, Boolean.class, true)) {
            return Optional.empty();
        }
        var explicit = environment.getProperty(PROPERTY);
        if (StringUtils.hasText(explicit)) {
            return Optional.of(legal(explicit.strip()));
        }
        Integer port = environment.getProperty("server.port", Integer.class);
        var name = environment.getProperty("spring.application.name");
        if (port == null || port <= 0 || !StringUtils.hasText(name)) {
            return Optional.empty();
        }
        return Optional.of(legal(name + "-" + hostName(environment) + "-" + port));
    }

    private static String hostName(PropertyResolver environment) {
        var fromEnvironment = environment.getProperty("HOSTNAME");
        if (StringUtils.hasText(fromEnvironment)) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** Kafka accepts only {@code [a-zA-Z0-9._-]}, at most 249 characters, in a group instance id. */
    static String legal(String id) {
        var cleaned = id.replaceAll("[^a-zA-Z0-9._-]", "_");
        return cleaned.length() <= 200 ? cleaned : cleaned.substring(0, 200);
    }
}
