package dev.iotpipeline.ingest.metrics;

import dev.iotpipeline.web.problem.RejectionCounter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Ingest's own meters: accepted uplinks by format, rejections by problem type, Kafka send latency, in-flight. */
public final class IngestMetrics implements RejectionCounter {

    private final MeterRegistry registry;
    private final Map<String, Counter> accepted = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> webhookMessages = new ConcurrentHashMap<>();
    private final Timer kafkaSend;
    private final AtomicInteger inFlight = new AtomicInteger();

    public IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.kafkaSend = Timer.builder("ingest.kafka.send")
                .description("Time from send to broker acknowledgement (acks=all)")
                .publishPercentileHistogram()
                .register(registry);
        registry.gauge("ingest.kafka.in.flight", inFlight);
    }

    public void accepted(String format, int uplinks) {
        accepted.computeIfAbsent(
                        format,
                        f -> Counter.builder("ingest.uplinks.accepted")
                                .tag("format", f)
                                .description("Uplinks acknowledged by Kafka and answered 202")
                                .register(registry))
                .increment(uplinks);
    }

    /**
     * A well-formed network-server message by its type (a bounded set per server) and whether it was stored
     * (an uplink) or acknowledged with nothing stored (joins, downlink events, uplinks without a payload, ...).
     */
    public void webhookMessage(String server, String type, String outcome) {
        webhookMessages
                .computeIfAbsent(
                        server + ' ' + type + ' ' + outcome,
                        k -> Counter.builder("ingest.webhook.messages")
                                .tag("server", server)
                                .tag("type", type)
                                .tag("outcome", outcome)
                                .description("Well-formed network-server messages by type, stored or acknowledged")
                                .register(registry))
                .increment();
    }

    @Override
    public void count(String problemType) {
        rejected.computeIfAbsent(
                        problemType,
                        t -> Counter.builder("ingest.requests.rejected")
                                .tag("cause", t)
                                .description("Requests answered with a problem, by problem type")
                                .register(registry))
                .increment();
    }

    public Timer kafkaSend() {
        return kafkaSend;
    }

    public AtomicInteger inFlight() {
        return inFlight;
    }
}
