package dev.iotpipeline.notify.live.protocol;

import dev.iotpipeline.events.EventJson;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/** Reads client frames: each is a client message, or else the error to answer it with. */
final class ClientMessages {

    /** What a text frame says: the client's message, or else the error to answer it with. */
    record Parsed(ClientMessage message, Rejection rejection) {}

    /** An error answer: the message id when one could be read, a stable code, and what is wrong. */
    record Rejection(String id, String code, String detail) {}

    // Strict, unlike event reading: a misspelt filter field must be an error, not a filter that matches all.
    private static final ObjectReader MESSAGES =
            EventJson.mapper().readerFor(ClientMessage.class).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ClientMessages() {}

    /** Reads a text frame; never throws, whatever the frame holds. */
    static Parsed parse(String payload) {
        JsonNode tree;
        try {
            tree = EventJson.mapper().readTree(payload);
        } catch (JacksonException e) {
            return new Parsed(
                    null,
                    new Rejection(null, "malformed-json", "Message is not valid JSON: " + e.getOriginalMessage()));
        }
        try {
            ClientMessage message = MESSAGES.readValue(tree);
            if (message == null) {
                // An empty frame or JSON null reads as no message at all.
                return new Parsed(null, new Rejection(null, "bad-message", "Message must be a JSON object"));
            }
            return new Parsed(message, null);
        } catch (DatabindException e) {
            var path = e.getPath();
            boolean inFilter =
                    !path.isEmpty() && "filter".equals(path.getFirst().getPropertyName());
            return new Parsed(
                    null,
                    new Rejection(
                            tree.path("id").isString() ? tree.path("id").asString() : null,
                            inFilter ? "bad-filter" : "bad-message",
                            e.getOriginalMessage()));
        }
    }
}
