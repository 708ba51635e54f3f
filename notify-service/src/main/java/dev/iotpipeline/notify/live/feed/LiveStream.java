package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.util.Arrays;
import java.util.Optional;

/** The streams a WebSocket client can subscribe to, and the message type each delivers. */
public enum LiveStream {
    DATA_UNITS("data-units", "data-unit", PipelineTopic.DATA_UNITS, "notify-poll"),
    ALARMS("alarms", "alarm", PipelineTopic.ALARMS, "notify-alarm-poll");

    private final String streamName;
    private final String messageType;
    private final PipelineTopic<?> topic;
    private final String pollHop;

    LiveStream(String streamName, String messageType, PipelineTopic<?> topic, String pollHop) {
        this.streamName = streamName;
        this.messageType = messageType;
        this.topic = topic;
        this.pollHop = pollHop;
    }

    /** The hop from the event's record written (decoder or rules) to the live feed polling it. */
    String pollHop() {
        return pollHop;
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
