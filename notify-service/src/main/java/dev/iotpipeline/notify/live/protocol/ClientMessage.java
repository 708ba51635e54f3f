package dev.iotpipeline.notify.live.protocol;

import dev.iotpipeline.notify.live.feed.SubscriptionRegistry.Filter;

/** A message from a WebSocket client: subscribe, unsubscribe or ping. */
record ClientMessage(String type, String id, String stream, Filter filter, String since) {}
