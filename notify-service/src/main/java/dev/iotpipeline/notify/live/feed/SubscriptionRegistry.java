package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.notify.live.session.SessionSender;
import dev.iotpipeline.notify.live.wire.ServerMessages;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live subscriptions indexed by stream and channel, so delivering one event looks only at the subscriptions
 * of its channel (plus those spanning all channels), never at every session.
 */
public final class SubscriptionRegistry {

    /** What a subscription selects; null fields match anything. */
    public record Filter(String channel, String deviceType, String deviceId, String severity) {

        public static final Filter ANY = new Filter(null, null, null, null);

        boolean matches(String deviceType, String deviceId, String severity) {
            return (this.deviceType == null || this.deviceType.equals(deviceType))
                    && (this.deviceId == null || this.deviceId.equals(deviceId))
                    && (this.severity == null || this.severity.equalsIgnoreCase(severity));
        }
    }

    /**
     * One client subscription. {@code channels} is what it may receive when the filter names no channel
     * (null = all). While a {@code since} replay runs, live events wait in its {@link Seam} instead of going out.
     */
    public static final class Subscription {
        private final String sessionId;
        private final String id;
        private final LiveStream stream;
        private final Filter filter;
        private final Set<String> channels;
        private final SessionSender sink;
        private final String prefix;
        private final Seam seam;

        public Subscription(
                String sessionId,
                String id,
                LiveStream stream,
                Filter filter,
                Set<String> channels,
                SessionSender sink) {
            this(sessionId, id, stream, filter, channels, sink, null);
        }

        public Subscription(
                String sessionId,
                String id,
                LiveStream stream,
                Filter filter,
                Set<String> channels,
                SessionSender sink,
                Seam seam) {
            this.sessionId = sessionId;
            this.id = id;
            this.stream = stream;
            this.filter = filter;
            this.channels = channels;
            this.sink = sink;
            this.seam = seam;
            this.prefix = ServerMessages.eventPrefix(stream.messageType(), id);
        }

        public boolean matches(LiveEvent event) {
            boolean channelOk = filter.channel() != null
                    ? filter.channel().equals(event.channel())
                    : channels == null || channels.contains(event.channel());
            return channelOk && filter.matches(event.deviceType(), event.deviceId(), event.severity());
        }

        /** The event's message to this subscription. */
        public String envelope(LiveEvent event) {
            return ServerMessages.event(prefix, event.json(), event.traceId());
        }

        public Seam seam() {
            return seam;
        }

        public String sessionId() {
            return sessionId;
        }

        public String id() {
            return id;
        }

        public LiveStream stream() {
            return stream;
        }

        /** Where this subscription's messages go: its session's one writer. */
        public SessionSender sink() {
            return sink;
        }

        void deliver(LiveEvent event, String text) {
            if (seam == null || seam.passLive(event, text)) {
                sink.send(text, stream.streamName(), event.receivedAt());
            }
        }
    }

    private record Key(String sessionId, String id) {}

    private static final String ALL = "\u0000all";

    private final Map<LiveStream, Map<String, Set<Subscription>>> index = new EnumMap<>(LiveStream.class);
    private final Map<Key, Subscription> byKey = new ConcurrentHashMap<>();
    // Closing a session finds its subscriptions here instead of scanning every session's.
    private final Map<String, Set<String>> idsBySession = new ConcurrentHashMap<>();

    public SubscriptionRegistry() {
        for (var stream : LiveStream.values()) {
            index.put(stream, new ConcurrentHashMap<>());
        }
    }

    /** Adds or replaces the subscription with the same session and id. */
    public void add(Subscription subscription) {
        remove(subscription.sessionId, subscription.id);
        byKey.put(new Key(subscription.sessionId, subscription.id), subscription);
        idsBySession
                .computeIfAbsent(subscription.sessionId, s -> ConcurrentHashMap.newKeySet())
                .add(subscription.id);
        var bucket = subscription.filter.channel() != null ? subscription.filter.channel() : ALL;
        index.get(subscription.stream)
                .computeIfAbsent(bucket, b -> ConcurrentHashMap.newKeySet())
                .add(subscription);
    }

    public boolean remove(String sessionId, String id) {
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

    /** Removes this very subscription, not one that has since replaced it under the same id. */
    public void remove(Subscription subscription) {
        if (byKey.get(new Key(subscription.sessionId, subscription.id)) == subscription) {
            remove(subscription.sessionId, subscription.id);
        }
    }

    /** How many subscriptions a session holds, for the per-connection limit. */
    public int countFor(String sessionId) {
        var ids = idsBySession.get(sessionId);
        return ids == null ? 0 : ids.size();
    }

    public boolean holds(String sessionId, String id) {
        return byKey.containsKey(new Key(sessionId, id));
    }

    public void removeSession(String sessionId) {
        var ids = idsBySession.remove(sessionId);
        if (ids != null) {
            List.copyOf(ids).forEach(id -> remove(sessionId, id));
        }
    }

    /**
     * Delivers one event to every matching subscription and returns how many it went to. The envelope is
     * built once per subscription id (dashboards tend to reuse theirs), not once per session.
     */
    int dispatch(LiveEvent event) {
        var buckets = index.get(event.stream());
        var envelopes = new HashMap<String, String>(4);
        int delivered = event.channel() == null ? 0 : deliver(buckets.get(event.channel()), event, envelopes);
        return delivered + deliver(buckets.get(ALL), event, envelopes);
    }

    private static int deliver(Set<Subscription> bucket, LiveEvent event, Map<String, String> envelopes) {
        if (bucket == null) {
            return 0;
        }
        int delivered = 0;
        for (var s : bucket) {
            if (s.matches(event)) {
                s.deliver(event, envelopes.computeIfAbsent(s.prefix, p -> s.envelope(event)));
                delivered++;
            }
        }
        return delivered;
    }

    public int size() {
        return byKey.size();
    }
}
