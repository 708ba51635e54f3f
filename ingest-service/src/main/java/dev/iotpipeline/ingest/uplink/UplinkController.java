package dev.iotpipeline.ingest.uplink;

import java.util.concurrent.CompletableFuture;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** HTTP edge of ingestion; the device key was already checked by the auth interceptor. */
@RestController
class UplinkController {

    private final UplinkFactory factory;
    private final UplinkPublisher publisher;

    UplinkController(UplinkFactory factory, UplinkPublisher publisher) {
        this.factory = factory;
        this.publisher = publisher;
    }

    @PostMapping(path = "/sensor-data/{channel}/encoded/{deviceType}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    CompletableFuture<ResponseEntity<Accepted>> encoded(@PathVariable String channel, @PathVariable String deviceType,
            @RequestBody UplinkRequest request,
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
        var uplink = factory.create(channel, deviceType, request, idempotencyKey);
        return publisher.publish(uplink)
                .thenApply(sent -> ResponseEntity.accepted().body(new Accepted(sent.id(), sent.receivedAt())));
    }
}
