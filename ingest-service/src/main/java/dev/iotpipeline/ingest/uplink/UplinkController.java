package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.web.security.Credential;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The device-facing edge as Spring MVC routes, described in the OpenAPI document; the lean path
 * ({@link LeanDevicePath}) answers the same requests first unless it is turned off.
 */
@RestController
@SecurityRequirement(name = "deviceKey")
class UplinkController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final DeviceUplinks uplinks;

    UplinkController(DeviceUplinks uplinks) {
        this.uplinks = uplinks;
    }

    @Operation(
            summary = "Post one encoded uplink, or a batch (JSON array) validated whole before anything is written",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(oneOf = {UplinkRequest.class, UplinkRequest[].class}))))
    @PostMapping(
            path = "/sensor-data/{channel}/encoded/{deviceType}",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> encoded(
            @PathVariable String channel,
            @PathVariable String deviceType,
            @RequestBody byte[] body,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            @AuthenticationPrincipal Credential.Device principal) {
        return entity(uplinks.encoded(channel, deviceType, body, idempotencyKey, principal));
    }

    @Operation(
            summary = "Post measurements the device decoded itself (one object or a JSON array)",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(oneOf = {DecodedRequest.class, DecodedRequest[].class}))))
    @PostMapping(
            path = "/sensor-data/{channel}/decoded",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> decoded(
            @PathVariable String channel,
            @RequestBody byte[] body,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            @AuthenticationPrincipal Credential.Device principal) {
        return entity(uplinks.decoded(channel, body, idempotencyKey, principal));
    }

    static ResponseEntity<Object> entity(DeviceUplinks.Answer answer) {
        return ResponseEntity.status(answer.status()).body(answer.body());
    }
}
