package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.web.security.Credential;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** The device-facing edge: parse, validate, rate-limit, then hand the uplinks to the publisher. */
@RestController
@SecurityRequirement(name = "deviceKey")
class UplinkController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final UplinkFactory factory;
    private final RequestItems items;
    private final UplinkIntake intake;

    UplinkController(UplinkFactory factory, RequestItems items, UplinkIntake intake) {
        this.factory = factory;
        this.items = items;
        this.intake = intake;
    }

    @Operation(summary = "Post one encoded uplink, or a batch (JSON array) validated whole before anything is written",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(oneOf = {UplinkRequest.class,
                    UplinkRequest[].class}))))
    @PostMapping(path = "/sensor-data/{channel}/encoded/{deviceType}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> encoded(@PathVariable String channel, @PathVariable String deviceType,
            @RequestBody byte[] body, @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.target(channel, deviceType);
        var json = items.parse(body);
        var uplinks = items.map(json, UplinkRequest.class,
                (request, index) -> factory.create(target, request, idempotencyKey, index));
        return accept(principal, uplinks, json.isArray(), json.isArray() ? "batch" : "single");
    }

    @Operation(summary = "Post measurements the device decoded itself (one object or a JSON array)",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(oneOf = {DecodedRequest.class,
                    DecodedRequest[].class}))))
    @PostMapping(path = "/sensor-data/{channel}/decoded", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> decoded(@PathVariable String channel, @RequestBody byte[] body,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.decodedTarget(channel);
        var json = items.parse(body);
        var uplinks = items.map(json, DecodedRequest.class,
                (request, index) -> factory.createDecoded(target, request, idempotencyKey, index));
        return accept(principal, uplinks, json.isArray(), "decoded");
    }

    /** 202 with the ids once Kafka has them all: one object for a single uplink, a list for a batch. */
    private ResponseEntity<Object> accept(Credential.Device principal, List<EncodedUplink> uplinks, boolean batch,
            String format) {
        var accepted = intake.accept(principal, uplinks, format);
        return ResponseEntity.accepted().body(batch ? new BatchAccepted(accepted.size(), accepted) : accepted.getFirst());
    }

    /** The 202 answer to a batch: one entry per item, in order. */
    record BatchAccepted(int accepted, @ArraySchema List<Accepted> items) {
    }
}
