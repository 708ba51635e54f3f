package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * Mirrors the devices topic into {@code registered_devices}, so the history can list a channel's registered devices
 * with when each was last heard. The topic's order is the truth: within a batch the last record of a key wins, and a
 * replay after a crash writes the same rows again. A record that is not a registered device is dead-lettered (the
 * records before it written first); the database being away is retried by the error handler.
 */
class RegistryMirror {

    private final BiConsumer<Collection<RegisteredDevice>, Collection<String>> apply;

    /** Takes {@link RegisteredDevices#apply}: the devices as they now are, and the keys deleted. */
    RegistryMirror(BiConsumer<Collection<RegisteredDevice>, Collection<String>> apply) {
        this.apply = apply;
    }

    @KafkaListener(
            id = "notify-registry",
            groupId = "notify-registry",
            batch = "true",
            topics = "#{T(dev.iotpipeline.kafka.topic.PipelineTopic).DEVICES.topicName()}")
    void onBatch(List<ConsumerRecord<String, byte[]>> records) {
        // Key -> the device as it now is, or null once deleted; one entry a key, so no statement meets a row twice.
        var latest = new LinkedHashMap<String, RegisteredDevice>();
        for (int i = 0; i < records.size(); i++) {
            var record = records.get(i);
            try {
                var device = parse(record);
                latest.put(record.key(), device);
            } catch (RuntimeException e) {
                write(latest);
                throw new BatchListenerFailedException(
                        "Not a registered device: " + describe(record),
                        new UnprocessableRecordException(
                                DeadLetterHeaders.CAUSE_MALFORMED_EVENT,
                                "not a registered device: " + e.getMessage(),
                                e),
                        i);
            }
        }
        write(latest);
    }

    private void write(Map<String, RegisteredDevice> latest) {
        if (latest.isEmpty()) {
            return;
        }
        var devices = new ArrayList<RegisteredDevice>();
        var deleted = new ArrayList<String>();
        latest.forEach((key, device) -> {
            if (device == null) {
                deleted.add(key);
            } else {
                devices.add(device);
            }
        });
        try {
            apply.accept(devices, deleted);
        } catch (RuntimeException e) {
            // Ingest validated every device before writing it, so a refusal is the database's: the batch comes again
            // from its first record (the rows before a malformed record are never committed without being written),
            // as often as the error handler's classification of the failure allows.
            throw new BatchListenerFailedException("Registry mirror not written", e, 0);
        } finally {
            latest.clear();
        }
    }

    /** The device a record holds, or null for a tombstone; the key must be the one the device is filed under. */
    static RegisteredDevice parse(ConsumerRecord<String, byte[]> record) {
        var key = record.key();
        if (key == null || key.indexOf('/') < 1 || key.indexOf('/') == key.length() - 1) {
            throw new IllegalArgumentException("key '" + key + "' is not {channel}/{deviceId}");
        }
        if (record.value() == null) {
            return null;
        }
        var device = PipelineTopic.DEVICES.read(record.value());
        if (device.channel() == null || device.deviceId() == null || device.updatedAt() == null) {
            throw new IllegalArgumentException("channel, deviceId and updatedAt are required");
        }
        if (!device.key().equals(key)) {
            throw new IllegalArgumentException("key '" + key + "' does not name device '" + device.key() + "'");
        }
        return device;
    }

    private static String describe(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
