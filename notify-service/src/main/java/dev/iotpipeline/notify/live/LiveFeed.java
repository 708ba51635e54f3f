package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.TopicTail;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Tails data-units and alarms from their end on this instance alone (no shared consumer group), so every
 * notify instance sees every event and delivers to its own sessions.
 */
final class LiveFeed implements AutoCloseable {

    private final SubscriptionRegistry registry;
    private final List<TopicTail> tails;

    LiveFeed(String bootstrapServers, SubscriptionRegistry registry) {
        this.registry = registry;
        this.tails = List.of(
                new TopicTail(bootstrapServers, LiveStream.DATA_UNITS.topic().topicName(), TopicTail.Start.END,
                        this::onDataUnit),
                new TopicTail(bootstrapServers, LiveStream.ALARMS.topic().topicName(), TopicTail.Start.END,
                        this::onAlarm));
    }

    /** Returns once both tails are positioned, so nothing produced after startup is missed. */
    LiveFeed start(Duration timeout) throws InterruptedException {
        for (var tail : tails) {
            tail.startReading();
        }
        for (var tail : tails) {
            if (!tail.awaitCaughtUp(timeout)) {
                throw new IllegalStateException("live topics not readable within " + timeout);
            }
        }
        return this;
    }

    private void onDataUnit(ConsumerRecord<String, byte[]> record) {
        var unit = EventJson.read(record.value(), DataUnit.class);
        registry.dispatch(LiveStream.DATA_UNITS, unit.channel(), unit.deviceType(), unit.deviceId(), null,
                unit.receivedAt(), new String(record.value(), StandardCharsets.UTF_8));
    }

    private void onAlarm(ConsumerRecord<String, byte[]> record) {
        var alarm = EventJson.read(record.value(), AlarmEvent.class);
        registry.dispatch(LiveStream.ALARMS, alarm.channel(), alarm.deviceType(), alarm.deviceId(),
                alarm.severity() == null ? null : alarm.severity().name(), alarm.receivedAt(),
                new String(record.value(), StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        tails.forEach(TopicTail::close);
    }
}
