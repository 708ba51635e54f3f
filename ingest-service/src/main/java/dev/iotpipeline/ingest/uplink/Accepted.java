package dev.iotpipeline.ingest.uplink;

import java.time.Instant;
import java.util.UUID;

/** The 202 answer: the event id and when ingest received the uplink. */
record Accepted(UUID id, Instant receivedAt) {}
