package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.web.security.Credential;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Webhook endpoints for LoRaWAN network servers, taking every message they send exactly as they send it.
 * The device type comes from the path, or else from the configured model mapping.
 */
@RestController
@SecurityRequirement(name = "deviceKey")
class WebhookController {

    private final DeviceUplinks uplinks;

    WebhookController(DeviceUplinks uplinks) {
        this.uplinks = uplinks;
    }

    @Operation(
            summary = "The Things Stack v3 webhook, every message type: uplinks are stored (202), every other"
                    + " message type is acknowledged with 204")
    @PostMapping(
            path = {"/sensor-data/{channel}/webhooks/tts", "/sensor-data/{channel}/webhooks/tts/{deviceType}"},
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> theThingsStack(
            @PathVariable String channel,
            @PathVariable(required = false) String deviceType,
            @RequestBody byte[] body,
            @AuthenticationPrincipal Credential.Device principal) {
        return UplinkController.entity(uplinks.theThingsStack(channel, deviceType, body, principal));
    }

    @Operation(
            summary = "ChirpStack v4 HTTP integration (JSON encoding), every event: 'up' is stored (202), every"
                    + " other event is acknowledged with 204")
    @PostMapping(
            path = {
                "/sensor-data/{channel}/webhooks/chirpstack",
                "/sensor-data/{channel}/webhooks/chirpstack/{deviceType}"
            },
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> chirpStack(
            @PathVariable String channel,
            @PathVariable(required = false) String deviceType,
            @RequestParam(required = false) String event,
            @RequestBody byte[] body,
            @AuthenticationPrincipal Credential.Device principal) {
        return UplinkController.entity(uplinks.chirpStack(channel, deviceType, event, body, principal));
    }
}
