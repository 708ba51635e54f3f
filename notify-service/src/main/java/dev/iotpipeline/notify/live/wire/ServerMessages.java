package dev.iotpipeline.notify.live.wire;

import dev.iotpipeline.events.EventJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one writer of every message the server sends on {@code /ws} (docs/websocket.md): live and replayed events,
 * the end of a replay, a retention gap, and the replies to a client's messages.
 */
public final class ServerMessages {

    private ServerMessages() {}

    /**
     * What precedes an event's JSON in its message: written once per subscription, so a live event is
     * serialized once and enveloped by concatenation for every subscriber.
     */
    public static String eventPrefix(String messageType, String subscriptionId) {
        return "{\"type\":\"" + messageType + "\",\"subscription\":"
                + EventJson.mapper().writeValueAsString(subscriptionId) + ",\"data\":";
    }

    /** An event's message; {@code traceId} (32 hex digits, or null) is optional, so clients that do not know it are unaffected. */
    public static String event(String prefix, String eventJson, String traceId) {
        return traceId == null ? prefix + eventJson + '}' : prefix + eventJson + ",\"traceId\":\"" + traceId + "\"}";
    }

    /** The end of a replay: {@code count} events were sent before live delivery resumed. */
    public static String replayed(String subscriptionId, long count) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "replayed");
        body.put("id", subscriptionId);
        body.put("count", count);
        return EventJson.mapper().writeValueAsString(body);
    }

    /** Events a replay asked for that retention deleted: per partition what was asked and what is left. */
    public static String gap(
            String subscriptionId,
            String stream,
            List<Map<String, Object>> partitions,
            Instant lostBefore,
            String detail) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "gap");
        body.put("id", subscriptionId);
        body.put("stream", stream);
        body.put("partitions", partitions);
        body.put("lostBefore", lostBefore.toString());
        body.put("detail", detail);
        return EventJson.mapper().writeValueAsString(body);
    }

    /** The server dropped {@code count} messages for a subscriber that fell behind, since it last said so. */
    public static String dropped(long count) {
        return "{\"type\":\"dropped\",\"count\":" + count + "}";
    }

    /** A reply to a client's message ({@code subscribed}, {@code unsubscribed}, {@code pong}). */
    public static String reply(String type, String id) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", type);
        if (id != null) {
            body.put("id", id);
        }
        return EventJson.mapper().writeValueAsString(body);
    }

    /** An error answering a client's message: its id when one could be read, a stable code, and what is wrong. */
    public static String error(String id, String code, String detail) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "error");
        if (id != null) {
            body.put("id", id);
        }
        body.put("code", code);
        body.put("message", detail);
        return EventJson.mapper().writeValueAsString(body);
    }
}
