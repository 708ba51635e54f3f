package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;

/**
 * An uplink as ingest built it from a request: the event, and whether ingest minted its id (no client id,
 * idempotency key or network message id), which its record says so that the history need not look for a copy.
 */
record ReceivedUplink(EncodedUplink event, boolean mintedId) {}
