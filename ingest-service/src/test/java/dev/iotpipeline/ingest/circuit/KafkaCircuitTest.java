package dev.iotpipeline.ingest.circuit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.BrokerNotAvailableException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaProducerException;

/** The circuit's states, driven by send outcomes and by a probe double standing in for the broker. */
class KafkaCircuitTest {

    private final AtomicBoolean clusterAnswers = new AtomicBoolean(false);
    private final AtomicInteger probes = new AtomicInteger();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final KafkaCircuit circuit = new KafkaCircuit(
            1,
            () -> {
                probes.incrementAndGet();
                return clusterAnswers.get();
            },
            registry);

    @AfterEach
    void close() throws Exception {
        circuit.close();
    }

    @Test
    void shouldOpenOnTheFirstSendThatMeansKafkaIsUnreachable() {
        assertThat(circuit.tryAcquire()).isTrue();
        circuit.failed(
                System.nanoTime(),
                new KafkaProducerException(
                        null,
                        "send failed",
                        new TimeoutException("Expiring 1 record(s): 5001 ms has passed since batch creation")));

        assertThat(circuit.isOpen()).isTrue();
        assertThat(circuit.tryAcquire()).isFalse();
        assertThat(registry.get("ingest.kafka.circuit.open").gauge().value()).isEqualTo(1);
        assertThat(registry.get("ingest.kafka.circuit.refused").counter().count())
                .isEqualTo(1);
    }

    @Test
    void shouldStayClosedThroughConcurrentSuccessesAndOpenOnTheFirstFailureAfterThem() throws Exception {
        try (var pool = Executors.newFixedThreadPool(4)) {
            var done = new ArrayList<Future<?>>();
            for (int t = 0; t < 4; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        assertThat(circuit.tryAcquire()).isTrue();
                        circuit.succeeded(System.nanoTime());
                    }
                }));
            }
            for (var future : done) {
                future.get();
            }
        }
        assertThat(circuit.isOpen()).isFalse();

        circuit.tryAcquire();
        circuit.failed(System.nanoTime(), new NetworkException("Disconnected from node 1"));

        assertThat(circuit.isOpen()).isTrue();
    }

    @Test
    void shouldStayClosedWhenAFailureSaysNothingAboutTheBroker() {
        circuit.tryAcquire();
        circuit.failed(System.nanoTime(), new RecordTooLargeException("too large"));

        assertThat(circuit.isOpen()).isFalse();
        assertThat(circuit.tryAcquire()).isTrue();
    }

    @Test
    void shouldNeedConsecutiveFailuresWhenConfiguredSo() throws Exception {
        try (var lenient = new KafkaCircuit(2, () -> true, new SimpleMeterRegistry())) {
            lenient.tryAcquire();
            lenient.failed(System.nanoTime(), new NetworkException("disconnected"));
            lenient.tryAcquire();
            lenient.succeeded(System.nanoTime());
            lenient.tryAcquire();
            lenient.failed(System.nanoTime(), new java.util.concurrent.TimeoutException());
            assertThat(lenient.isOpen()).isFalse();

            lenient.tryAcquire();
            lenient.failed(System.nanoTime(), new java.util.concurrent.TimeoutException());
            assertThat(lenient.isOpen()).isTrue();
        }
    }

    @Test
    void shouldStayOpenWithoutLettingRequestsThroughWhileTheProbeGetsNoAnswer() {
        open();

        for (int i = 0; i < 3; i++) {
            circuit.probeIfOpen();
        }

        assertThat(probes).hasValue(3);
        assertThat(circuit.isOpen()).isTrue();
        assertThat(circuit.tryAcquire()).isFalse();
    }

    @Test
    void shouldCloseAfterAProbeTheClusterAnswered() {
        open();
        clusterAnswers.set(true);

        circuit.probeIfOpen();

        assertThat(circuit.isOpen()).isFalse();
        assertThat(circuit.tryAcquire()).isTrue();
        assertThat(registry.get("ingest.kafka.circuit.open").gauge().value()).isZero();
    }

    @Test
    void shouldNotProbeTheClusterWhileClosed() {
        circuit.probeIfOpen();

        assertThat(probes).hasValue(0);
    }

    @Test
    void shouldCloseByItselfOnceTheBackgroundProbeGetsAnAnswer() {
        circuit.startProbing(Duration.ofMillis(50));
        open();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(circuit::isOpen);

        clusterAnswers.set(true);

        await().atMost(Duration.ofSeconds(2)).until(() -> !circuit.isOpen());
    }

    @Test
    void shouldKeepProbingAfterAProbeThrows() throws Exception {
        var calls = new AtomicInteger();
        try (var flaky = new KafkaCircuit(
                1,
                () -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("admin client closed");
                    }
                    return true;
                },
                new SimpleMeterRegistry())) {
            flaky.startProbing(Duration.ofMillis(20));
            flaky.tryAcquire();
            flaky.failed(System.nanoTime(), new TimeoutException("metadata not available after 2000 ms"));

            await().atMost(Duration.ofSeconds(2)).until(() -> !flaky.isOpen());
            assertThat(calls.get()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void shouldRefuseAWaitingRequestAtOnceWhenItsAcksStallAndTheClusterDoesNotAnswer() {
        circuit.startProbing(Duration.ofSeconds(10), Duration.ofMillis(100));
        assertThat(circuit.tryAcquire()).isTrue();
        var request = new CompletableFuture<Void>();
        long started = System.nanoTime();

        circuit.awaiting(request);

        await().atMost(Duration.ofSeconds(5)).until(request::isDone);
        var refusal = request.exceptionNow();
        assertThat(refusal).isInstanceOf(BrokerNotAvailableException.class);
        assertThat(KafkaCircuit.meansUnavailable(refusal)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("not before the stall")
                .isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(circuit.isOpen()).isTrue();
        assertThat(probes).as("probed once the request stalled").hasPositiveValue();
    }

    @Test
    void shouldFindAStallAgainAfterAQuietSpellWithNothingAwaitingKafka() {
        circuit.startProbing(Duration.ofSeconds(10), Duration.ofMillis(100));
        // a request answered at once, then nothing for several stall periods: the stall checks stop meanwhile
        answer(awaitingRequest());
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> probes.get() == 0);

        // when the next request's ack never comes
        var stalled = awaitingRequest();

        // then it is still refused once it stalled
        await().atMost(Duration.ofSeconds(5)).until(stalled::isDone);
        assertThat(stalled.exceptionNow()).isInstanceOf(BrokerNotAvailableException.class);
        assertThat(circuit.isOpen()).isTrue();
    }

    @Test
    void shouldAskTheClusterOnceWhenAWarmupBeginsAndLeaveTheCircuitAsItWas() throws Exception {
        try (var hold = circuit.warmingUp()) {
            assertThat(probes).hasValue(1);
            assertThat(circuit.isOpen())
                    .as("the cluster did not answer, but nothing waited for it")
                    .isFalse();
        }
    }

    @Test
    void shouldLetAStalledRequestWaitDuringAWarmupAndRefuseItOnceTheWarmupEnds() throws Exception {
        circuit.startProbing(Duration.ofSeconds(10), Duration.ofMillis(50));
        var hold = circuit.warmingUp();
        probes.set(0);

        // a rehearsed uplink whose ack does not come while the cluster does not answer
        var stalled = awaitingRequest();

        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).until(() -> !stalled.isDone());
        assertThat(circuit.isOpen())
                .as("a stall alone opens nothing during a warm-up")
                .isFalse();
        assertThat(probes).as("nor probes the cluster").hasValue(0);

        hold.close();
        hold.close();

        await().atMost(Duration.ofSeconds(5)).until(stalled::isDone);
        assertThat(stalled.exceptionNow()).isInstanceOf(BrokerNotAvailableException.class);
        assertThat(circuit.isOpen()).isTrue();
    }

    @Test
    void shouldStillOpenOnAFailedSendDuringAWarmup() throws Exception {
        try (var hold = circuit.warmingUp()) {
            var waiting = awaitingRequest();

            open();

            assertThat(circuit.isOpen()).isTrue();
            assertThat(waiting.exceptionNow()).isInstanceOf(BrokerNotAvailableException.class);
        }
    }

    @Test
    void shouldLeaveAStalledRequestWaitingWhileTheClusterAnswers() {
        clusterAnswers.set(true);
        circuit.startProbing(Duration.ofSeconds(10), Duration.ofMillis(50));
        assertThat(circuit.tryAcquire()).isTrue();
        var request = new CompletableFuture<Void>();

        circuit.awaiting(request);

        await().atMost(Duration.ofSeconds(5)).until(() -> probes.get() > 0);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !request.isDone());
        assertThat(circuit.isOpen()).isFalse();
    }

    @Test
    void shouldRefuseRequestsStillWaitingWhenAnotherSendOpensTheCircuit() {
        assertThat(circuit.tryAcquire()).isTrue();
        var waiting = new CompletableFuture<Void>();
        circuit.awaiting(waiting);

        open();

        assertThat(waiting).isCompletedExceptionally();
        assertThat(waiting.exceptionNow()).isInstanceOf(BrokerNotAvailableException.class);
    }

    @Test
    void shouldNotProbeWhileAcksKeepComing() {
        circuit.startProbing(Duration.ofSeconds(10), Duration.ofMillis(50));

        answer(awaitingRequest());

        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> probes.get() == 0);
    }

    /** A request the circuit let through, now awaiting its ack. */
    private CompletableFuture<Void> awaitingRequest() {
        assertThat(circuit.tryAcquire()).isTrue();
        var request = new CompletableFuture<Void>();
        circuit.awaiting(request);
        return request;
    }

    /** Kafka acknowledges the request. */
    private void answer(CompletableFuture<Void> request) {
        request.complete(null);
        circuit.succeeded(System.nanoTime());
    }

    private void open() {
        circuit.tryAcquire();
        circuit.failed(
                System.nanoTime(), new TimeoutException("Topic uplinks.encoded not present in metadata after 2000 ms"));
        assertThat(circuit.isOpen()).isTrue();
    }
}
