package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.ingest.problem.Problems;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaOperations;

/** Writes uplinks to Kafka and completes only when the broker acknowledged them (acks=all). */
class UplinkPublisher {

    private static final Logger log = LoggerFactory.getLogger(UplinkPublisher.class);

    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Duration retryAfter;

    UplinkPublisher(KafkaOperations<String, Object> kafka, Duration sendTimeout, Duration retryAfter) {
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.retryAfter = retryAfter;
    }

    CompletableFuture<EncodedUplink> publish(EncodedUplink uplink) {
        CompletableFuture<?> sent;
        try {
            sent = kafka.send(PipelineTopic.UPLINKS_ENCODED.topicName(), uplink.deviceId(), uplink);
        } catch (RuntimeException e) {
            // send() itself throws when metadata or buffer space is not available within max.block.ms
            return CompletableFuture.failedFuture(unavailable(e));
        }
        return sent.orTimeout(sendTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((result, error) -> {
                    if (error != null) {
                        throw new CompletionException(unavailable(error));
                    }
                    return uplink;
                });
    }

    private RuntimeException unavailable(Throwable cause) {
        log.warn("Kafka did not acknowledge an uplink: {}", cause.toString());
        var problem = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "kafka-unavailable",
                "The uplink could not be made durable; retry later");
        problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
        return problem;
    }
}
