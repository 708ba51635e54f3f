package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.web.problem.Problems;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * Reads the messages of LoRaWAN network servers as they send them: every message type of The Things Stack v3
 * (its webhook may send all of them to one URL) and every ChirpStack v4 event (JSON encoding). Uplinks with an
 * application payload become uplinks; every other well-formed message is acknowledged. Both servers omit zero
 * and empty fields, so every field but the device and payload is optional.
 */
final class NetworkServerFormats {

    /** The Things Stack's {@code ApplicationUp} message types, each a top-level field of the webhook body. */
    static final List<String> TTS_TYPES = List.of(
            "uplink_message",
            "uplink_normalized",
            "join_accept",
            "downlink_ack",
            "downlink_nack",
            "downlink_sent",
            "downlink_failed",
            "downlink_queued",
            "downlink_queue_invalidated",
            "location_solved",
            "service_data");

    /** ChirpStack v4's event types, named by the {@code event} query parameter it appends. */
    static final List<String> CHIRPSTACK_EVENTS =
            List.of("up", "join", "ack", "txack", "log", "status", "location", "integration");

    /** Fields of a TTS body around its message, not a message type themselves. */
    private static final Set<String> TTS_ENVELOPE =
            Set.of("end_device_ids", "correlation_ids", "received_at", "unique_id", "simulated");

    static final String OTHER = "other";
    private static final String NO_PAYLOAD = "the uplink carries no application payload";

    private NetworkServerFormats() {}

    /**
     * A TTS message: an {@code uplink_message} with a payload is an uplink (device {@code end_device_ids.device_id});
     * any other message type, or an uplink without a payload, is acknowledged.
     */
    static NetworkMessage theThingsStack(JsonNode event) {
        requireObject(event);
        if (!event.path("end_device_ids").isObject()) {
            throw invalid(
                    "missing-field", "end_device_ids is required: every The Things Stack message names its device");
        }
        var message = event.path("uplink_message");
        if (message.isMissingNode()) {
            return new NetworkMessage.Acknowledged(ttsType(event), "not an uplink");
        }
        if (!message.isObject()) {
            throw invalid("invalid-field", "uplink_message must be an object");
        }
        requireDevice(event.path("end_device_ids").path("device_id"), "end_device_ids.device_id");
        if (noPayload(message.path("frm_payload"))) {
            return new NetworkMessage.Acknowledged("uplink_message", NO_PAYLOAD);
        }
        return new NetworkMessage.Uplink("uplink_message", ttsUplink(event, message));
    }

    /** A ChirpStack event: {@code up} with a payload is an uplink, any other event (well-formed) is acknowledged. */
    static NetworkMessage chirpStack(String event, JsonNode body) {
        requireObject(body);
        var type = event == null ? "up" : event;
        if (!type.equals("up")) {
            return new NetworkMessage.Acknowledged(CHIRPSTACK_EVENTS.contains(type) ? type : OTHER, "not an uplink");
        }
        requireDevice(body.path("deviceInfo").path("devEui"), "deviceInfo.devEui");
        if (noPayload(body.path("data"))) {
            return new NetworkMessage.Acknowledged("up", NO_PAYLOAD);
        }
        return new NetworkMessage.Uplink("up", chirpStackUplink(body));
    }

    /** The message type a TTS body holds besides its envelope; unknown types count as {@value #OTHER}. */
    private static String ttsType(JsonNode event) {
        for (var type : TTS_TYPES) {
            if (event.path(type).isObject()) {
                return type;
            }
        }
        for (var field : event.propertyNames()) {
            if (!TTS_ENVELOPE.contains(field) && event.path(field).isObject()) {
                return OTHER;
            }
        }
        throw invalid("missing-field", "The message holds no message type: expected one of " + TTS_TYPES);
    }

    /** Both servers leave an empty payload out; an explicit null or empty string says the same. */
    private static boolean noPayload(JsonNode node) {
        return node.isMissingNode()
                || node.isNull()
                || (node.isString() && node.asString().isEmpty());
    }

    private static void requireObject(JsonNode body) {
        if (!body.isObject()) {
            throw invalid("malformed-json", "The body must be a JSON object");
        }
    }

    private static void requireDevice(JsonNode node, String field) {
        if (!node.isString() || node.asString().isBlank()) {
            throw invalid("missing-field", field + " is required");
        }
    }

    /** TTS: device {@code end_device_ids.device_id}, frame in {@code uplink_message}. */
    private static WebhookUplink ttsUplink(JsonNode event, JsonNode message) {
        var ids = event.path("end_device_ids");
        var metadata = new LinkedHashMap<String, Object>();
        metadata.put("networkServer", "tts");
        putText(metadata, "devEui", ids.path("dev_eui"));
        putText(metadata, "applicationId", ids.path("application_ids").path("application_id"));
        putNumber(metadata, "fCnt", message.path("f_cnt"));
        radio(metadata, message.path("rx_metadata"));
        putText(metadata, "frequency", message.path("settings").path("frequency"));
        putNumber(
                metadata,
                "spreadingFactor",
                message.path("settings").path("data_rate").path("lora").path("spreading_factor"));
        var versions = message.path("version_ids");
        // asString() throws on an object or array: a model id that is not a value names no model.
        var model = versions.path("model_id").isValueNode()
                ? versions.path("brand_id").asString("") + "/"
                        + versions.path("model_id").asString()
                : null;
        var messageId = correlationId(event);
        var received = instant(message.path("received_at"), event.path("received_at"));
        if (messageId == null && received != null) {
            // A field-masked body may leave out the correlation ids; the frame counter and receive time still name
            // the message. Without a receive time nothing does, and the uplink gets a new id.
            messageId = ids.path("device_id").asString("") + ":"
                    + message.path("f_cnt").asString("0") + ":" + received;
        }
        return new WebhookUplink(
                text(ids.path("device_id")),
                fPort(message.path("f_port"), "uplink_message.f_port"),
                base64(message.path("frm_payload"), "uplink_message.frm_payload"),
                received,
                messageId,
                model,
                metadata);
    }

    /** ChirpStack: device {@code deviceInfo.devEui}, frame at the top level; the deduplication id names it. */
    private static WebhookUplink chirpStackUplink(JsonNode event) {
        var device = event.path("deviceInfo");
        var metadata = new LinkedHashMap<String, Object>();
        metadata.put("networkServer", "chirpstack");
        putText(metadata, "deviceName", device.path("deviceName"));
        putText(metadata, "applicationName", device.path("applicationName"));
        putNumber(metadata, "fCnt", event.path("fCnt"));
        putNumber(metadata, "dr", event.path("dr"));
        radio(metadata, event.path("rxInfo"));
        putNumber(metadata, "frequency", event.path("txInfo").path("frequency"));
        return new WebhookUplink(
                text(device.path("devEui")),
                fPort(event.path("fPort"), "fPort"),
                base64(event.path("data"), "data"),
                instant(event.path("time")),
                text(event.path("deduplicationId")),
                text(device.path("deviceProfileName")),
                metadata);
    }

    /** The strongest gateway's RSSI and SNR, and how many gateways heard the frame. */
    private static void radio(Map<String, Object> metadata, JsonNode gateways) {
        if (!gateways.isArray() || gateways.isEmpty()) {
            return;
        }
        JsonNode best = null;
        for (var gateway : gateways) {
            if (best == null
                    || gateway.path("rssi").asDouble(-999) > best.path("rssi").asDouble(-999)) {
                best = gateway;
            }
        }
        putNumber(metadata, "rssi", best.path("rssi"));
        putNumber(metadata, "snr", best.path("snr"));
        metadata.put("gateways", gateways.size());
    }

    private static String correlationId(JsonNode event) {
        for (var id : event.path("correlation_ids")) {
            if (id.asString("").startsWith("as:up:")) {
                return id.asString();
            }
        }
        return null;
    }

    private static byte[] base64(JsonNode node, String field) {
        if (!node.isString() || node.asString().isEmpty()) {
            throw invalid("missing-field", field + " is required");
        }
        try {
            return Base64.getDecoder().decode(node.asString());
        } catch (IllegalArgumentException e) {
            throw invalid("invalid-base64", field + " is not valid base64: " + e.getMessage());
        }
    }

    private static Instant instant(JsonNode... candidates) {
        for (var node : candidates) {
            if (node.isString()) {
                try {
                    return OffsetDateTime.parse(node.asString()).toInstant();
                } catch (DateTimeParseException e) {
                    throw invalid("invalid-field", "'" + node.asString() + "' is not an ISO-8601 time");
                }
            }
        }
        return null;
    }

    private static String text(JsonNode node) {
        return node.isString() ? node.asString() : null;
    }

    /**
     * The frame port, when given as a number: a whole number from 0 to 255, as LoRaWAN has it and the
     * encoded form checks (asInt() would throw on numbers outside the int range).
     */
    private static Integer fPort(JsonNode node, String field) {
        if (!node.isNumber()) {
            return null;
        }
        if (!node.canConvertToExactIntegral() || !node.canConvertToInt() || node.asInt() < 0 || node.asInt() > 255) {
            throw invalid("invalid-field", field + " must be a whole number between 0 and 255, not " + node);
        }
        return node.asInt();
    }

    private static void putText(Map<String, Object> metadata, String name, JsonNode node) {
        if (node.isString() || node.isNumber()) {
            metadata.put(name, node.asString());
        }
    }

    private static void putNumber(Map<String, Object> metadata, String name, JsonNode node) {
        if (node.isNumber()) {
            metadata.put(name, node.numberValue());
        }
    }

    private static RuntimeException invalid(String type, String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, type, detail);
    }
}
