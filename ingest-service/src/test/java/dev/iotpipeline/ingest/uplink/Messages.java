package dev.iotpipeline.ingest.uplink;

/** Test access to what a network-server message holds. */
final class Messages {

    private Messages() {}

    /** The uplink of a message that must be one. */
    static WebhookUplink uplink(NetworkMessage message) {
        if (message instanceof NetworkMessage.Uplink(var type, var uplink)) {
            return uplink;
        }
        throw new AssertionError("expected an uplink, got " + message);
    }

    /** The uplink of a message, or null when it was acknowledged with nothing to store. */
    static WebhookUplink uplinkOrNull(NetworkMessage message) {
        return message instanceof NetworkMessage.Uplink(var type, var uplink) ? uplink : null;
    }
}
