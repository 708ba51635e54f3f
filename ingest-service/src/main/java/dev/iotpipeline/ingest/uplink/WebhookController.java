package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.IngestProperties;
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
 * Webhook endpoints for LoRaWAN network servers, taking their uplink events exactly as they send them.
 * The device type comes from the path, or else from the configured model mapping.
 */
@RestController
@SecurityRequirement(name = "deviceKey")
class WebhookController {

    private final UplinkFactory factory;
    private final RequestItems items;
    private final UplinkIntake intake;
    private final Map<String, String> deviceTypeByModel;

    WebhookController(UplinkFactory factory, RequestItems items, UplinkIntake intake, IngestProperties properties) {
        this.factory = factory;
        this.items = items;
        this.intake = intake;
        this.deviceTypeByModel = properties.webhooks().deviceTypes();
    }

    @Operation(summary = "The Things Stack v3 webhook: uplink message")
    @PostMapping(path = {"/sensor-data/{channel}/webhooks/tts", "/sensor-data/{channel}/webhooks/tts/{deviceType}"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> theThingsStack(@PathVariable String channel,
            @PathVariable(required = false) String deviceType, @RequestBody byte[] body,
            @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.target(channel, deviceType);
        var uplink = NetworkServerFormats.theThingsStack(items.parse(body));
        return forward(target, uplink, principal, "tts");
    }

    @Operation(summary = "ChirpStack v4 HTTP integration (JSON encoding); events other than 'up' are acknowledged and ignored")
    @PostMapping(path = {"/sensor-data/{channel}/webhooks/chirpstack",
            "/sensor-data/{channel}/webhooks/chirpstack/{deviceType}"},
            consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> chirpStack(@PathVariable String channel,
            @PathVariable(required = false) String deviceType, @RequestParam(required = false) String event,
            @RequestBody byte[] body, @AuthenticationPrincipal Credential.Device principal) {
        var target = factory.target(channel, deviceType);
        if (event != null && !event.equals("up")) {
            return ResponseEntity.noContent().build();
        }
        var uplink = NetworkServerFormats.chirpStack(items.parse(body));
        return forward(target, uplink, principal, "chirpstack");
    }

    /** Without a device type in the path, the device's model names it (ingest.webhooks.device-types). */
    private ResponseEntity<Object> forward(UplinkFactory.Target target, WebhookUplink uplink,
            Credential.Device principal, String format) {
        var typed = target.deviceType() != null ? target : factory.target(target.channel(), mapped(uplink.model()));
        var accepted = intake.accept(principal, List.of(factory.createForwarded(typed, uplink)), format);
        return ResponseEntity.accepted().body(accepted.getFirst());
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
