package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.time.Instant;

/**
 * Live subscriptions indexed by stream and channel, so delivering one event looks only at the subscriptions
 * of its channel (plus those spanning all channels), never at every session.
 */
final class SubscriptionRegistry {

    /** What a subscription selects; null fields match anything. */
    record Filter(String channel, String deviceType, String deviceId, String severity) {

        static final Filter ANY = new Filter(null, null, null, null);

        boolean matches(String deviceType, String deviceId, String severity) {
            return (this.deviceType == null || this.deviceType.equals(deviceType))
                    && (this.deviceId == null || this.deviceId.equals(deviceId))
                    && (this.severity == null || this.severity.equalsIgnoreCase(severity));
        }
    }

    /**
     * One client subscription. {@code channels} is what it may receive when the filter names no channel
     * (null = all). The envelope prefix is built once, so a delivery is one concatenation.
     */
    static final class Subscription {
        final String sessionId;
        final String id;
        final LiveStream stream;
        final Filter filter;
        final Set<String> channels;
        final SessionSender sink;
        private final String prefix;

        Subscription(String sessionId, String id, LiveStream stream, Filter filter, Set<String> channels,
                SessionSender sink) {
            this.sessionId = sessionId;
            this.id = id;
            this.stream = stream;
            this.filter = filter;
            this.channels = channels;
            this.sink = sink;
            this.prefix = "{\"type\":\"" + stream.messageType() + "\",\"subscription\":"
                    + EventJson.mapper().writeValueAsString(id) + ",\"data\":";
        }

        void deliver(String eventJson, Instant receivedAt) {
            sink.send(prefix + eventJson + '}', stream.streamName(), receivedAt);
        }
    }

    private record Key(String sessionId, String id) {
    }

    private static final String ALL = "\u0000all";

    private final Map<LiveStream, Map<String, Set<Subscription>>> index = new EnumMap<>(LiveStream.class);
    private final Map<Key, Subscription> byKey = new ConcurrentHashMap<>();
    // Closing a session finds its subscriptions here instead of scanning every session's.
    private final Map<String, Set<String>> idsBySession = new ConcurrentHashMap<>();

    SubscriptionRegistry() {
        for (var stream : LiveStream.values()) {
            index.put(stream, new ConcurrentHashMap<>());
        }
    }

    /** Adds or replaces the subscription with the same session and id. */
    void add(Subscription subscription) {
        remove(subscription.sessionId, subscription.id);
        byKey.put(new Key(subscription.sessionId, subscription.id), subscription);
        idsBySession.computeIfAbsent(subscription.sessionId, s -> ConcurrentHashMap.newKeySet()).add(subscription.id);
        var bucket = subscription.filter.channel() != null ? subscription.filter.channel() : ALL;
        index.get(subscription.stream).computeIfAbsent(bucket, b -> ConcurrentHashMap.newKeySet()).add(subscription);
    }

    boolean remove(String sessionId, String id) {
        var removed = byKey.remove(new Key(sessionId, id));
        if (removed == null) {
            return false;
        }
        var ids = idsBySession.get(sessionId);
        if (ids != null) {
            ids.remove(id);
        }
        var bucket = removed.filter.channel() != null ? removed.filter.channel() : ALL;
        var set = index.get(removed.stream).get(bucket);
        if (set != null) {
            set.remove(removed);
        }
        return true;
    }

    void removeSession(String sessionId) {
        var ids = idsBySession.remove(sessionId);
        if (ids != null) {
            List.copyOf(ids).forEach(id -> remove(sessionId, id));
        }
    }

    /** Delivers one event to every matching subscription and returns how many it went to. */
    int dispatch(LiveStream stream, String channel, String deviceType, String deviceId, String severity,
            Instant receivedAt, String eventJson) {
        int delivered = 0;
        var buckets = index.get(stream);
        var exact = buckets.get(channel);
        if (exact != null) {
            for (var s : exact) {
                if (s.filter.matches(deviceType, deviceId, severity)) {
                    s.deliver(eventJson, receivedAt);
                    delivered++;
                }
            }
        }
        var all = buckets.get(ALL);
        if (all != null) {
            for (var s : all) {
                if ((s.channels == null || s.channels.contains(channel)) && s.filter.matches(deviceType, deviceId, severity)) {
                    s.deliver(eventJson, receivedAt);
                    delivered++;
                }
            }
        }
        return delivered;
    }

    int size() {
        return byKey.size();
    }
}
