package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.ingest.ratelimit.DeviceRateLimiter;
import dev.iotpipeline.ingest.registry.DeviceRegistry;
import dev.iotpipeline.web.security.Credential;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What every format does with its uplinks once they are built: admit each one's device (the registry), rate limit,
 * publish, and count them.
 */
class UplinkIntake {

    /**
     * Who the rehearsal's tokens are taken for: a bucket of its own (no credential's id is "warmup"), at a rate far
     * above what the warm-up sends, so it is never refused; the idle sweep drops it after the warm-up.
     */
    private static final Credential.Device REHEARSAL = new Credential.Device("warmup", Set.of(), 1_000_000.0);

    private final UplinkPublisher publisher;
    private final DeviceRateLimiter rateLimiter;
    private final IngestMetrics metrics;
    private final DeviceRegistry registry;

    UplinkIntake(
            UplinkPublisher publisher, DeviceRateLimiter rateLimiter, IngestMetrics metrics, DeviceRegistry registry) {
        this.publisher = publisher;
        this.rateLimiter = rateLimiter;
        this.metrics = metrics;
        this.registry = registry;
    }

    /**
     * The uplinks' ids and receipt times once Kafka has them all. The request waits on a virtual thread
     * (spring.threads.virtual.enabled), which measured faster here than an asynchronous servlet dispatch.
     */
    List<Accepted> accept(Credential.Device principal, List<ReceivedUplink> uplinks, String format) {
        for (var uplink : uplinks) {
            registry.admit(principal, uplink.event().channel(), uplink.event().deviceId());
        }
        rateLimiter.acquire(principal, uplinks.size());
        var sent = join(publisher.publish(uplinks));
        metrics.accepted(format, sent.size());
        return accepted(sent);
    }

    /**
     * The warm-up's uplinks, published into {@code topic} (its own) once Kafka has them all: no registry or count,
     * and a rate limit on a bucket of the rehearsal's own, so that nothing of a rehearsal stays behind.
     */
    List<Accepted> rehearse(List<ReceivedUplink> uplinks, String topic) {
        rateLimiter.acquire(REHEARSAL, uplinks.size());
        return accepted(join(publisher.rehearse(uplinks, topic)));
    }

    private static List<ReceivedUplink> join(CompletableFuture<List<ReceivedUplink>> published) {
        try {
            return published.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private static List<Accepted> accepted(List<ReceivedUplink> sent) {
        return sent.stream()
                .map(u -> new Accepted(u.event().id(), u.event().receivedAt()))
                .toList();
    }
}
