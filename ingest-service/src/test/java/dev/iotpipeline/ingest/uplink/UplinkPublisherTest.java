package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.after;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.kafka.topic.MintedId;
import dev.iotpipeline.kafka.tracing.TraceStart;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaProducerException;
import org.springframework.kafka.support.SendResult;
import org.springframework.web.ErrorResponseException;

/** The publisher's answers when Kafka is slow, away or overloaded, with the Kafka circuit in front; the broker side is stubbed. */
class UplinkPublisherTest {

    @SuppressWarnings("unchecked")
    private static final TraceStart NO_TRACING = new TraceStart(null, null, "uplink");

    private final KafkaOperations<String, Object> kafka = mock(KafkaOperations.class);
    private final IngestMetrics metrics = new IngestMetrics(new SimpleMeterRegistry());
    private final AtomicBoolean clusterAnswers = new AtomicBoolean(false);
    private final KafkaCircuit circuit = new KafkaCircuit(1, clusterAnswers::get, new SimpleMeterRegistry());

    @AfterEach
    void closeCircuit() throws Exception {
        circuit.close();
    }

    private UplinkPublisher publisher(Duration sendTimeout, int maxInFlight) {
        return publisher(sendTimeout, maxInFlight, Integer.MAX_VALUE);
    }

    private UplinkPublisher publisher(Duration sendTimeout, int maxInFlight, int sendNowFrom) {
        return publisher(sendTimeout, maxInFlight, sendNowFrom, 0);
    }

    private UplinkPublisher publisher(Duration sendTimeout, int maxInFlight, int sendNowFrom, int sendNowBelowRate) {
        return new UplinkPublisher(
                kafka,
                circuit,
                sendTimeout,
                Duration.ofSeconds(2),
                maxInFlight,
                1,
                sendNowFrom,
                sendNowBelowRate,
                metrics,
                NO_TRACING);
    }

    @Test
    void shouldCompleteOnlyWhenEveryUplinkIsAcknowledged() {
        var ack = new CompletableFuture<SendResult<String, Object>>();
        when(kafka.send(any(ProducerRecord.class))).thenReturn(ack);
        var publisher = publisher(Duration.ofSeconds(5), 10);

        var published = publisher.publish(List.of(uplink(), uplink()));

        assertThat(published).isNotDone();
        assertThat(metrics.inFlight()).hasValue(2);
        ack.complete(null);
        assertThat(published.join()).hasSize(2);
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldSendALoneRequestAtOnceAndLetRequestsBehindOthersLinger() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofSeconds(5), 10);

        publisher.publish(List.of(uplink(), uplink()));
        verify(kafka, timeout(2_000)).flush();

        publisher.publish(List.of(uplink()));
        verify(kafka, after(300).times(1)).flush();
    }

    @Test
    void shouldSendRequestsBehindOthersAtOnceWhileTheRateIsLowAndLetThemLingerOnceItIsNot() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofSeconds(5), 10, Integer.MAX_VALUE, 4);
        publisher.publish(List.of(uplink()));
        verify(kafka, timeout(2_000)).flush();

        publisher.publish(List.of(uplink(), uplink()));
        verify(kafka, timeout(2_000).times(2)).flush();

        publisher.publish(List.of(uplink()));
        verify(kafka, after(300).times(2)).flush();
    }

    @Test
    void shouldSendABatchLargeEnoughAtOnceEvenBehindOthers() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofSeconds(5), 10, 3);
        publisher.publish(List.of(uplink()));
        verify(kafka, timeout(2_000)).flush();

        publisher.publish(List.of(uplink(), uplink()));
        verify(kafka, after(300).times(1)).flush();

        publisher.publish(List.of(uplink(), uplink(), uplink()));
        verify(kafka, timeout(2_000).times(2)).flush();
    }

    @Test
    void shouldWriteRehearsalsToTheGivenTopicOnlyAndLeaveTheSendTimerUntouched() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(CompletableFuture.completedFuture(null));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        assertThat(publisher.rehearse(List.of(uplink(), uplink()), "_warmup").join())
                .hasSize(2);
        assertThat(metrics.kafkaSend().count()).isZero();
        publisher.publish(List.of(uplink())).join();
        assertThat(metrics.kafkaSend().count()).isOne();

        @SuppressWarnings("unchecked")
        var sent = ArgumentCaptor.forClass(ProducerRecord.class);
        verify(kafka, times(3)).send(sent.capture());
        assertThat(sent.getAllValues())
                .extracting(ProducerRecord::topic)
                .containsExactly("_warmup", "_warmup", "uplinks.encoded");
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldMarkTheRecordsOfUplinksWhoseIdIngestMintedAndNoOther() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(CompletableFuture.completedFuture(null));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        publisher.publish(List.of(uplink(true), uplink(false))).join();

        @SuppressWarnings("unchecked")
        ArgumentCaptor<ProducerRecord<String, Object>> sent = ArgumentCaptor.forClass(ProducerRecord.class);
        verify(kafka, times(2)).send(sent.capture());
        assertThat(sent.getAllValues())
                .extracting(record -> MintedId.isMarked(record.headers()))
                .containsExactly(true, false);
    }

    @Test
    void shouldAnswer503WithRetryAfterWhenKafkaDoesNotAcknowledgeInTime() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofMillis(50), 10);

        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldAnswer503WhenSendCannotEvenBuffer() {
        when(kafka.send(any(ProducerRecord.class))).thenThrow(new TimeoutException("metadata not available"));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
    }

    @Test
    void shouldAnswer503OverloadedBeyondTheInFlightBound() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofSeconds(5), 3);
        publisher.publish(List.of(uplink(), uplink()));

        assertUnavailable(publisher.publish(List.of(uplink(), uplink())), "overloaded");
    }

    @Test
    void shouldRefuseAtOnceWithoutTouchingTheProducerOnceASendTimedOut() {
        when(kafka.send(any(ProducerRecord.class)))
                .thenReturn(CompletableFuture.failedFuture(
                        new KafkaProducerException(null, "send failed", new TimeoutException("Expiring 1 record(s)"))));
        var publisher = publisher(Duration.ofSeconds(5), 10);
        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
        // That lone request asked for a send now, on a thread of its own; let it finish before counting.
        verify(kafka, timeout(2_000)).flush();
        clearInvocations(kafka);

        for (int i = 0; i < 100; i++) {
            long started = System.nanoTime();
            var refused = publisher.publish(List.of(uplink()));
            assertThat(refused).isCompletedExceptionally();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(50));
            assertUnavailable(refused, "kafka-unavailable");
        }
        verifyNoInteractions(kafka);
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldOpenTheCircuitWhenSendCannotGetMetadataWithinMaxBlock() {
        when(kafka.send(any(ProducerRecord.class)))
                .thenThrow(new TimeoutException("Topic uplinks.encoded not present in metadata after 2000 ms."));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");

        assertThat(circuit.isOpen()).isTrue();
    }

    @Test
    void shouldSendAgainOnlyAfterAProbeReachedTheCluster() {
        when(kafka.send(any(ProducerRecord.class))).thenReturn(new CompletableFuture<>());
        var publisher = publisher(Duration.ofMillis(50), 10);
        circuit.startProbing(Duration.ofMillis(20));
        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(circuit::isOpen);
        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
        verify(kafka, times(1)).send(any(ProducerRecord.class));

        when(kafka.send(any(ProducerRecord.class))).thenReturn(CompletableFuture.completedFuture(null));
        clusterAnswers.set(true);
        await().atMost(Duration.ofSeconds(2)).until(() -> !circuit.isOpen());

        assertThat(publisher.publish(List.of(uplink())).join()).hasSize(1);
        verify(kafka, times(2)).send(any(ProducerRecord.class));
    }

    @Test
    void shouldNeverReportSuccessWhenOneUplinkOfABatchWasNotAcknowledged() {
        when(kafka.send(any(ProducerRecord.class)))
                .thenReturn(CompletableFuture.completedFuture(null))
                .thenReturn(CompletableFuture.failedFuture(new KafkaProducerException(
                        null, "send failed", new NetworkException("Disconnected from node 1"))))
                .thenReturn(CompletableFuture.completedFuture(null));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        assertUnavailable(publisher.publish(List.of(uplink(), uplink(), uplink())), "kafka-unavailable");
        assertThat(circuit.isOpen()).isTrue();
    }

    @Test
    void shouldKeepTheCircuitClosedWhenARecordIsRejectedForItsOwnSake() {
        when(kafka.send(any(ProducerRecord.class)))
                .thenReturn(CompletableFuture.failedFuture(
                        new KafkaProducerException(null, "send failed", new RecordTooLargeException("too large"))));
        var publisher = publisher(Duration.ofSeconds(5), 10);

        assertThatThrownBy(publisher.publish(List.of(uplink()))::join).isInstanceOf(CompletionException.class);

        assertThat(circuit.isOpen()).isFalse();
    }

    private static void assertUnavailable(CompletableFuture<?> published, String type) {
        assertThatThrownBy(published::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(503);
                    assertThat(e.getBody().getType().toString()).endsWith("/" + type);
                    assertThat(e.getHeaders().getFirst("Retry-After")).isEqualTo("2");
                });
    }

    private static ReceivedUplink uplink() {
        return uplink(true);
    }

    private static ReceivedUplink uplink(boolean mintedId) {
        return new ReceivedUplink(
                new EncodedUplink(
                        Ids.newId(), 1, "c", "em300th", "d", null, new byte[] {1}, Instant.now(), null, Map.of()),
                mintedId);
    }
}
