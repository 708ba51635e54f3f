package dev.iotpipeline.ingest.uplink;

/** One message a network server posts to its webhook: an uplink to store, or a message to acknowledge and count. */
sealed interface NetworkMessage {

    /** The server's name for the message type (a bounded set: unknown types are named {@code other}). */
    String type();

    record Uplink(String type, WebhookUplink uplink) implements NetworkMessage {}

    /**
     * A well-formed message with nothing to store (a join, a downlink event, a status, an uplink without an
     * application payload): answered 204, so the server keeps the webhook healthy.
     */
    record Acknowledged(String type, String reason) implements NetworkMessage {}
}
