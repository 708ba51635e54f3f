package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.web.problem.Problems;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * Reads the uplink events of LoRaWAN network servers as they send them: The Things Stack v3 uplink
 * messages and ChirpStack v4 {@code up} events (JSON encoding). Both omit zero and empty fields, so every
 * field but the device and payload is optional.
 */
final class NetworkServerFormats {

    private NetworkServerFormats() {
    }

    /** TTS: device {@code end_device_ids.device_id}, frame in {@code uplink_message}. */
    static WebhookUplink theThingsStack(JsonNode event) {
        var ids = event.path("end_device_ids");
        var message = event.path("uplink_message");
        if (message.isMissingNode()) {
            throw invalid("missing-field", "uplink_message is required (configure the webhook for uplink messages)");
        }
        var metadata = new LinkedHashMap<String, Object>();
        metadata.put("networkServer", "tts");
        putText(metadata, "devEui", ids.path("dev_eui"));
        putText(metadata, "applicationId", ids.path("application_ids").path("application_id"));
        putNumber(metadata, "fCnt", message.path("f_cnt"));
        radio(metadata, message.path("rx_metadata"));
        putText(metadata, "frequency", message.path("settings").path("frequency"));
        putNumber(metadata, "spreadingFactor", message.path("settings").path("data_rate").path("lora").path("spreading_factor"));
        var versions = message.path("version_ids");
        // asString() throws on an object or array: a model id that is not a value names no model.
        var model = versions.path("model_id").isValueNode()
                ? versions.path("brand_id").asString("") + "/" + versions.path("model_id").asString() : null;
        var messageId = correlationId(event);
        var received = instant(message.path("received_at"), event.path("received_at"));
        if (messageId == null) {
            messageId = ids.path("device_id").asString("") + ":" + message.path("f_cnt").asString("0") + ":" + received;
        }
        return new WebhookUplink(text(ids.path("device_id")), fPort(message.path("f_port"), "uplink_message.f_port"),
                base64(message.path("frm_payload"), "uplink_message.frm_payload"), received, messageId, model, metadata);
    }

    /** ChirpStack: device {@code deviceInfo.devEui}, frame at the top level; the deduplication id names it. */
    static WebhookUplink chirpStack(JsonNode event) {
        var device = event.path("deviceInfo");
        var metadata = new LinkedHashMap<String, Object>();
        metadata.put("networkServer", "chirpstack");
        putText(metadata, "deviceName", device.path("deviceName"));
        putText(metadata, "applicationName", device.path("applicationName"));
        putNumber(metadata, "fCnt", event.path("fCnt"));
        putNumber(metadata, "dr", event.path("dr"));
        radio(metadata, event.path("rxInfo"));
        putNumber(metadata, "frequency", event.path("txInfo").path("frequency"));
        return new WebhookUplink(text(device.path("devEui")), fPort(event.path("fPort"), "fPort"),
                base64(event.path("data"), "data"), instant(event.path("time")), text(event.path("deduplicationId")),
                text(device.path("deviceProfileName")), metadata);
    }

    /** The strongest gateway's RSSI and SNR, and how many gateways heard the frame. */
    private static void radio(Map<String, Object> metadata, JsonNode gateways) {
        if (!gateways.isArray() || gateways.isEmpty()) {
            return;
        }
        JsonNode best = null;
        for (var gateway : gateways) {
            if (best == null || gateway.path("rssi").asDouble(-999) > best.path("rssi").asDouble(-999)) {
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
