package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.events.PipelineTopic;
import java.util.Arrays;
import java.util.Optional;

/** The streams a WebSocket client can subscribe to, and the message type each delivers. */
public enum LiveStream {
    DATA_UNITS("data-units", "data-unit", PipelineTopic.DATA_UNITS),
    ALARMS("alarms", "alarm", PipelineTopic.ALARMS);

    private final String streamName;
    private final String messageType;
    private final PipelineTopic<?> topic;

    LiveStream(String streamName, String messageType, PipelineTopic<?> topic) {
        this.streamName = streamName;
        this.messageType = messageType;
        this.topic = topic;
    }

    public String streamName() {
        return streamName;
    }

    public String messageType() {
        return messageType;
    }

    public PipelineTopic<?> topic() {
        return topic;
    }

    public static Optional<LiveStream> byName(String name) {
        return Arrays.stream(values()).filter(s -> s.streamName.equals(name)).findFirst();
    }
}
