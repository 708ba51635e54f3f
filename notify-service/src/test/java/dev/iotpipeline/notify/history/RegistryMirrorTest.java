package dev.iotpipeline.notify.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.RegisteredDevice;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.listener.BatchListenerFailedException;

class RegistryMirrorTest {

    private record Applied(List<RegisteredDevice> devices, List<String> deleted) {}

    private final List<Applied> applied = new ArrayList<>();
    private final RegistryMirror mirror =
            new RegistryMirror((Collection<RegisteredDevice> devices, Collection<String> deleted) ->
                    applied.add(new Applied(List.copyOf(devices), List.copyOf(deleted))));
    private long offset;

    @Test
    void shouldWriteEachKeyOnceAsItsLastRecordLeavesIt() {
        mirror.onBatch(List.of(
                record("north/a", device("north", "a", true)),
                record("north/b", device("north", "b", true)),
                record("north/a", device("north", "a", false)),
                record("north/b", null),
                record("north/c", null),
                record("north/c", device("north", "c", true))));

        assertThat(applied).hasSize(1);
        var batch = applied.getFirst();
        assertThat(batch.devices())
                .extracting(RegisteredDevice::deviceId, RegisteredDevice::enabled)
                .containsExactly(tuple("a", false), tuple("c", true));
        assertThat(batch.deleted()).containsExactly("north/b");
    }

    @Test
    void shouldWriteTheRecordsBeforeAMalformedOneAndNameItForTheDeadLetters() {
        var batch = List.of(
                record("north/a", device("north", "a", true)),
                new ConsumerRecord<>(
                        PipelineTopic.DEVICES.topicName(),
                        0,
                        offset++,
                        "north/b",
                        "{".getBytes(StandardCharsets.UTF_8)),
                record("north/c", device("north", "c", true)));

        var failure = catchThrowableOfType(BatchListenerFailedException.class, () -> mirror.onBatch(batch));

        assertThat(failure.getIndex()).isEqualTo(1);
        assertThat(failure.getCause())
                .isInstanceOf(UnprocessableRecordException.class)
                .hasMessageStartingWith("not a registered device");
        assertThat(((UnprocessableRecordException) failure.getCause()).deadLetterCause())
                .isEqualTo(DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
        assertThat(applied)
                .singleElement()
                .satisfies(a -> assertThat(a.devices())
                        .extracting(RegisteredDevice::deviceId)
                        .containsExactly("a"));
    }

    @Test
    void shouldRefuseARecordFiledUnderAnotherDevicesKey() {
        var failure = catchThrowableOfType(
                BatchListenerFailedException.class,
                () -> mirror.onBatch(List.of(record("north/a", device("north", "b", true)))));

        assertThat(failure.getIndex()).isZero();
        assertThat(failure.getCause()).hasMessageContaining("does not name device 'north/b'");
        assertThat(applied).isEmpty();
    }

    @Test
    void shouldRefuseATombstoneWhoseKeyNamesNoDevice() {
        var failure = catchThrowableOfType(
                BatchListenerFailedException.class, () -> mirror.onBatch(List.of(record("north", null))));

        assertThat(failure.getCause()).hasMessageContaining("is not {channel}/{deviceId}");
    }

    @Test
    void shouldHandTheDatabasesFailureToTheErrorHandlerFromTheBatchsFirstRecord() {
        var away = new RegistryMirror((devices, deleted) -> {
            throw new DataAccessResourceFailureException("connection refused");
        });

        var failure = catchThrowableOfType(
                BatchListenerFailedException.class,
                () -> away.onBatch(List.of(
                        record("north/a", device("north", "a", true)), record("north/b", device("north", "b", true)))));

        assertThat(failure.getIndex()).isZero();
        assertThat(failure.getCause()).isInstanceOf(DataAccessResourceFailureException.class);
    }

    private ConsumerRecord<String, byte[]> record(String key, RegisteredDevice device) {
        return new ConsumerRecord<>(
                PipelineTopic.DEVICES.topicName(), 0, offset++, key, device == null ? null : EventJson.write(device));
    }

    private static RegisteredDevice device(String channel, String deviceId, boolean enabled) {
        return new RegisteredDevice(
                channel,
                deviceId,
                RegisteredDevice.SCHEMA_VERSION,
                "em300th",
                Map.of("room", "12"),
                enabled,
                List.of(),
                Instant.parse("2026-11-27T00:00:00Z"));
    }
}
