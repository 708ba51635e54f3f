package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.kafka.batching.SendNow;
import dev.iotpipeline.kafka.batching.SendNowRule;
import dev.iotpipeline.kafka.topic.MintedId;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.tracing.TraceStart;
import dev.iotpipeline.web.problem.Problems;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.web.ErrorResponseException;

/**
 * Writes uplinks to Kafka and completes only when the broker acknowledged all of them (acks=all). The
 * number of uplinks awaiting an ack is bounded; past the bound, when Kafka does not answer in time, or at
 * once while the Kafka circuit is open, the request gets a 503 with Retry-After instead of waiting.
 */
class UplinkPublisher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UplinkPublisher.class);

    private static final Function<ReceivedUplink, ProducerRecord<String, Object>> UPLINKS = uplink -> {
        var record = PipelineTopic.UPLINKS_ENCODED.record(uplink.event().deviceId(), uplink.event());
        if (uplink.mintedId()) {
            MintedId.mark(record.headers());
        }
        return record;
    };

    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Duration retryAfter;
    private final Semaphore inFlight;
    private final IngestMetrics metrics;
    private final KafkaCircuit circuit;
    private final TraceStart traces;
    private final ScheduledExecutorService deadlines;
    private final SendNow sendNow;
    private final SendNowRule sendNowRule;

    UplinkPublisher(
            KafkaOperations<String, Object> kafka,
            KafkaCircuit circuit,
            Duration sendTimeout,
            Duration retryAfter,
            int maxInFlight,
            int sendNowBelow,
            int sendNowFrom,
            int sendNowBelowRate,
            IngestMetrics metrics,
            TraceStart traces) {
        this.kafka = kafka;
        this.sendNowRule = new SendNowRule(sendNowBelow, sendNowFrom, sendNowBelowRate);
        this.sendNow = new SendNow(kafka::flush, "ingest-send-now");
        this.traces = traces;
        this.circuit = circuit;
        this.sendTimeout = sendTimeout;
        this.retryAfter = retryAfter;
        this.inFlight = new Semaphore(maxInFlight);
        this.metrics = metrics;
        // One sweep for every request's deadline, not a timer per request: CompletableFuture.orTimeout's timers,
        // scheduled and cancelled once per POST on the common pool's delay scheduler, cost about 7 µs of CPU per
        // uplink at 5,000 POSTs/s (docs/benchmarks/thread-cpu.md). The deadline is kept to within a tenth of it; the
        // sweep runs only while requests await Kafka.
        this.deadlines = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("ingest-send-deadlines").daemon().factory());
        circuit.whileAwaiting(
                deadlines,
                Duration.ofMillis(Math.max(1, Math.min(100, sendTimeout.toMillis() / 10))),
                () -> circuit.expireWaiting(sendTimeout));
    }

    CompletableFuture<List<ReceivedUplink>> publish(List<ReceivedUplink> uplinks) {
        return send(uplinks, UPLINKS, metrics.kafkaSend());
    }

    /**
     * The warm-up's uplinks, through everything {@link #publish} does (circuit, bound, producer, serializer, acks),
     * into {@code topic} instead of uplinks.encoded and without the send timer, so that the first real uplinks meet
     * a compiled producer path and nothing downstream or in the metrics sees them.
     */
    CompletableFuture<List<ReceivedUplink>> rehearse(List<ReceivedUplink> uplinks, String topic) {
        return send(
                uplinks, uplink -> new ProducerRecord<>(topic, uplink.event().deviceId(), uplink.event()), null);
    }

    private CompletableFuture<List<ReceivedUplink>> send(
            List<ReceivedUplink> uplinks,
            Function<ReceivedUplink, ProducerRecord<String, Object>> records,
            Timer timer) {
        int count = uplinks.size();
        if (!circuit.tryAcquire()) {
            return CompletableFuture.failedFuture(unavailable(
                    "kafka-unavailable",
                    "Kafka is unreachable, so the uplink cannot be made durable; retry later",
                    null));
        }
        if (!inFlight.tryAcquire(count)) {
            circuit.release();
            return CompletableFuture.failedFuture(
                    unavailable("overloaded", "Too many uplinks are awaiting Kafka; retry later", null));
        }
        // The producer lingers so that concurrent requests share produce requests; one that finds (almost) nothing
        // else awaiting Kafka, brings a batch that fills a produce request of its own, or comes while the rate is low,
        // has its uplinks sent at once instead.
        boolean atOnce = sendNowRule.atOnce(metrics.inFlight().addAndGet(count) - count, count);
        var sends = new ArrayList<CompletableFuture<?>>(count);
        long started = System.nanoTime();
        var sample = Timer.start();
        try {
            for (var uplink : uplinks) {
                sends.add(traces.send(records.apply(uplink), kafka::send));
            }
            if (atOnce) {
                sendNow.request();
            }
        } catch (RuntimeException e) {
            // send() itself throws when metadata or buffer space is not available within max.block.ms
            release(count);
            circuit.failed(started, e);
            return CompletableFuture.failedFuture(
                    unavailable("kafka-unavailable", "The uplink could not be made durable; retry later", e));
        }
        // Answered by the acks, by the deadline sweep, or at once should the circuit open meanwhile (the broker died).
        var acked = CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new));
        circuit.awaiting(acked);
        return acked.handle((ignored, error) -> {
            release(count);
            if (error != null) {
                circuit.failed(started, error);
                throw new CompletionException(
                        unavailable("kafka-unavailable", "The uplink could not be made durable; retry later", error));
            }
            circuit.succeeded(started);
            if (timer != null) {
                sample.stop(timer);
            }
            return uplinks;
        });
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
    }

    private void release(int count) {
        inFlight.release(count);
        metrics.inFlight().addAndGet(-count);
    }

    private ErrorResponseException unavailable(String type, String detail, Throwable cause) {
        if (cause != null) {
            log.warn("Kafka did not acknowledge: {}", cause.toString());
        }
        var problem = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, type, detail);
        problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
        return problem;
    }
}
