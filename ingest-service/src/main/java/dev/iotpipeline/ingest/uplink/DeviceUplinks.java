package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * What the device endpoints do with an authenticated request body, whichever edge received it (the lean path or
 * Spring MVC): parse, validate, rate-limit, publish, and the answer with its status.
 */
final class DeviceUplinks {

    /** An answer: 202 with the accepted uplink(s), or 204 without a body for a message that is only acknowledged. */
    record Answer(HttpStatus status, Object body) {

        static final Answer NO_CONTENT = new Answer(HttpStatus.NO_CONTENT, null);
    }

    /** The 202 answer to a batch: one entry per item, in order. */
    record BatchAccepted(int accepted, List<Accepted> items) {}

    private final UplinkFactory factory;
    private final RequestItems items;
    private final UplinkIntake intake;
    private final IngestMetrics metrics;
    private final Map<String, String> deviceTypeByModel;

    DeviceUplinks(
            UplinkFactory factory,
            RequestItems items,
            UplinkIntake intake,
            IngestMetrics metrics,
            Map<String, String> deviceTypeByModel) {
        this.factory = factory;
        this.items = items;
        this.intake = intake;
        this.metrics = metrics;
        this.deviceTypeByModel = Map.copyOf(deviceTypeByModel);
    }

    /** One encoded uplink, or a batch (a JSON array) validated whole before anything is written. */
    Answer encoded(String channel, String deviceType, byte[] body, String idempotencyKey, Credential.Device device) {
        var target = factory.target(channel, deviceType);
        var json = items.parse(body);
        var uplinks = items.map(
                json, UplinkRequest.class, (request, index) -> factory.create(target, request, idempotencyKey, index));
        return accept(device, uplinks, json.isArray(), json.isArray() ? "batch" : "single");
    }

    /** Measurements the device decoded itself, one object or a JSON array. */
    Answer decoded(String channel, byte[] body, String idempotencyKey, Credential.Device device) {
        var target = factory.decodedTarget(channel);
        var json = items.parse(body);
        var uplinks = items.map(
                json,
                DecodedRequest.class,
                (request, index) -> factory.createDecoded(target, request, idempotencyKey, index));
        return accept(device, uplinks, json.isArray(), "decoded");
    }

    /** A message of The Things Stack's webhook: an uplink is stored (202), any other type acknowledged (204). */
    Answer theThingsStack(String channel, String deviceType, byte[] body, Credential.Device device) {
        var target = factory.target(channel, deviceType);
        return answer(target, NetworkServerFormats.theThingsStack(items.parse(body)), device, "tts");
    }

    /** An event of ChirpStack's HTTP integration: {@code up} is stored (202), any other event acknowledged (204). */
    Answer chirpStack(String channel, String deviceType, String event, byte[] body, Credential.Device device) {
        var target = factory.target(channel, deviceType);
        return answer(target, NetworkServerFormats.chirpStack(event, items.parse(body)), device, "chirpstack");
    }

    /**
     * What {@link #encoded} does, into the warm-up's own {@code topic}: parse, validate, build, publish with
     * acks=all, and the answer; no registry or metric, and the rehearsal's own rate-limit bucket. For the warm-up
     * before readiness.
     */
    Answer rehearseEncoded(String channel, String deviceType, byte[] body, String topic) {
        var target = factory.target(channel, deviceType);
        var json = items.parse(body);
        var uplinks =
                items.map(json, UplinkRequest.class, (request, index) -> factory.create(target, request, null, index));
        var accepted = intake.rehearse(uplinks, topic);
        return new Answer(
                HttpStatus.ACCEPTED,
                json.isArray() ? new BatchAccepted(accepted.size(), accepted) : accepted.getFirst());
    }

    /** 202 with the ids once Kafka has them all: one object for a single uplink, a list for a batch. */
    private Answer accept(Credential.Device device, List<ReceivedUplink> uplinks, boolean batch, String format) {
        var accepted = intake.accept(device, uplinks, format);
        return new Answer(
                HttpStatus.ACCEPTED, batch ? new BatchAccepted(accepted.size(), accepted) : accepted.getFirst());
    }

    private Answer answer(
            UplinkFactory.Target target, NetworkMessage message, Credential.Device device, String server) {
        return switch (message) {
            case NetworkMessage.Uplink(var type, var uplink) -> {
                var accepted = forward(target, uplink, device, server);
                metrics.webhookMessage(server, type, "stored");
                yield new Answer(HttpStatus.ACCEPTED, accepted);
            }
            case NetworkMessage.Acknowledged(var type, var reason) -> {
                metrics.webhookMessage(server, type, "ignored");
                yield Answer.NO_CONTENT;
            }
        };
    }

    /** Without a device type in the path, the device's model names it (ingest.webhooks.device-types). */
    private Accepted forward(
            UplinkFactory.Target target, WebhookUplink uplink, Credential.Device device, String format) {
        var typed = target.deviceType() != null ? target : factory.target(target.channel(), mapped(uplink.model()));
        return intake.accept(device, List.of(factory.createForwarded(typed, uplink)), format)
                .getFirst();
    }

    private String mapped(String model) {
        var type = model == null ? null : deviceTypeByModel.get(model);
        if (type == null) {
            throw Problems.of(
                    HttpStatus.NOT_FOUND,
                    "unknown-device-type",
                    "No device type in the path and none mapped" + " for model '" + model
                            + "' (ingest.webhooks.device-types)");
        }
        return type;
    }
}
