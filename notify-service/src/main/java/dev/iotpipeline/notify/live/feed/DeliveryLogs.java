package dev.iotpipeline.notify.live.feed;

import java.util.EnumMap;
import java.util.Map;

/** The delivery log of each live stream on this instance, which {@code since} resumes from. */
public final class DeliveryLogs {

    private final Map<LiveStream, DeliveryLog> logs = new EnumMap<>(LiveStream.class);

    public DeliveryLogs(int capacity) {
        for (var stream : LiveStream.values()) {
            logs.put(stream, new DeliveryLog(capacity));
        }
    }

    public DeliveryLog of(LiveStream stream) {
        return logs.get(stream);
    }
}
