package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.support.SendResult;
import org.springframework.web.ErrorResponseException;

/** The publisher's answers when Kafka is slow, away or overloaded; the broker side is stubbed here only. */
class UplinkPublisherTest {

    @SuppressWarnings("unchecked")
    private final KafkaOperations<String, Object> kafka = mock(KafkaOperations.class);
    private final IngestMetrics metrics = new IngestMetrics(new SimpleMeterRegistry());

    @Test
    void shouldCompleteOnlyWhenEveryUplinkIsAcknowledged() {
        var ack = new CompletableFuture<SendResult<String, Object>>();
        when(kafka.send(anyString(), anyString(), any())).thenReturn(ack);
        var publisher = new UplinkPublisher(kafka, Duration.ofSeconds(5), Duration.ofSeconds(2), 10, metrics);

        var published = publisher.publish(List.of(uplink(), uplink()));

        assertThat(published).isNotDone();
        assertThat(metrics.inFlight()).hasValue(2);
        ack.complete(null);
        assertThat(published.join()).hasSize(2);
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldAnswer503WithRetryAfterWhenKafkaDoesNotAcknowledgeInTime() {
        when(kafka.send(anyString(), anyString(), any())).thenReturn(new CompletableFuture<>());
        var publisher = new UplinkPublisher(kafka, Duration.ofMillis(50), Duration.ofSeconds(2), 10, metrics);

        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
        assertThat(metrics.inFlight()).hasValue(0);
    }

    @Test
    void shouldAnswer503WhenSendCannotEvenBuffer() {
        when(kafka.send(anyString(), anyString(), any())).thenThrow(new TimeoutException("metadata not available"));
        var publisher = new UplinkPublisher(kafka, Duration.ofSeconds(5), Duration.ofSeconds(2), 10, metrics);

        assertUnavailable(publisher.publish(List.of(uplink())), "kafka-unavailable");
    }

    @Test
    void shouldAnswer503OverloadedBeyondTheInFlightBound() {
        when(kafka.send(anyString(), anyString(), any())).thenReturn(new CompletableFuture<>());
        var publisher = new UplinkPublisher(kafka, Duration.ofSeconds(5), Duration.ofSeconds(2), 3, metrics);
        publisher.publish(List.of(uplink(), uplink()));

        assertUnavailable(publisher.publish(List.of(uplink(), uplink())), "overloaded");
    }

    private static void assertUnavailable(CompletableFuture<?> published, String type) {
        assertThatThrownBy(published::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(503);
                    assertThat(e.getBody().getType().toString()).endsWith("/" + type);
                    assertThat(e.getHeaders().getFirst("Retry-After")).isEqualTo("2");
                });
    }

    private static EncodedUplink uplink() {
        return new EncodedUplink(Ids.newId(), 1, "c", "em300th", "d", null, new byte[] {1}, Instant.now(), null,
                Map.of());
    }
}
