package dev.iotpipeline.notify.live;

/** A message from a WebSocket client: subscribe, unsubscribe or ping. */
record ClientMessage(String type, String id, String stream, SubscriptionRegistry.Filter filter, String since) {
}
