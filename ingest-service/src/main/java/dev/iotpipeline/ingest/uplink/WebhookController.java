package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.problem.Problems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
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

    private final UplinkFactory factory;
    private final RequestItems items;
    private final UplinkIntake intake;
    private final IngestMetrics metrics;
    private final Map<String, String> deviceTypeByModel;

    WebhookController(UplinkFactory factory, RequestItems items, UplinkIntake intake, IngestMetrics metrics,
            IngestProperties properties) {
        this.factory = factory;
        this.items = items;
        this.intake = intake;
        this.metrics = metrics;
        this.deviceTypeByModel = properties.webhooks().deviceTypes();
    }

    @Operation(summary = "The Things Stack v3 webhook, every message type: uplinks are stored (202), every other"
            + " message type is acknowledged with 204")
    @PostMapping(path = {"/sensor-data/{channel}/webhooks/tts", "/sensor-data/{channel}/webhooks/tts/{deviceType}"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> theThingsStack(@PathVariable String channel,
            @PathVariable(required = false) String deviceType, @RequestBody byte[] body,
            @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.target(channel, deviceType);
        return answer(target, NetworkServerFormats.theThingsStack(items.parse(body)), principal, "tts");
    }

    @Operation(summary = "ChirpStack v4 HTTP integration (JSON encoding), every event: 'up' is stored (202), every"
            + " other event is acknowledged with 204")
    @PostMapping(path = {"/sensor-data/{channel}/webhooks/chirpstack",
            "/sensor-data/{channel}/webhooks/chirpstack/{deviceType}"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> chirpStack(@PathVariable String channel,
            @PathVariable(required = false) String deviceType, @RequestParam(required = false) String event,
            @RequestBody byte[] body, @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.target(channel, deviceType);
        return answer(target, NetworkServerFormats.chirpStack(event, items.parse(body)), principal, "chirpstack");
    }

    /** An uplink is stored (202); any other message is counted and acknowledged (204), so the server sees success. */
    private ResponseEntity<Object> answer(UplinkFactory.Target target, NetworkMessage message,
            Credential.Device principal, String server) {
        return switch (message) {
            case NetworkMessage.Uplink(var type, var uplink) -> {
                var accepted = forward(target, uplink, principal, server);
                metrics.webhookMessage(server, type, "stored");
                yield ResponseEntity.accepted().body(accepted);
            }
            case NetworkMessage.Acknowledged(var type, var reason) -> {
                metrics.webhookMessage(server, type, "ignored");
                yield ResponseEntity.noContent().build();
            }
        };
    }

    /** Without a device type in the path, the device's model names it (ingest.webhooks.device-types). */
    private Accepted forward(UplinkFactory.Target target, WebhookUplink uplink, Credential.Device principal,
            String format) {
        var typed = target.deviceType() != null ? target : factory.target(target.channel(), mapped(uplink.model()));
        return intake.accept(principal, List.of(factory.createForwarded(typed, uplink)), format).getFirst();
    }

    private String mapped(String model) {
        var type = model == null ? null : deviceTypeByModel.get(model);
        if (type == null) {
            throw Problems.of(HttpStatus.NOT_FOUND, "unknown-device-type", "No device type in the path and none mapped"
                    + " for model '" + model + "' (ingest.webhooks.device-types)");
        }
        return type;
    }
}
