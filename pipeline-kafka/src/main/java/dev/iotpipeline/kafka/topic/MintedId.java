package dev.iotpipeline.kafka.topic;

import org.apache.kafka.common.header.Headers;

/**
 * Marks a record whose uplink id ingest minted when it received the uplink (no client id, idempotency key or network
 * message id named it): every copy of such an uplink, and of each data unit decoded from it, carries the receipt time
 * the id was minted with, so a repeat has the history's whole key (id, received_at) and the store writer need not
 * look its ids up before it copies them in. A record without the mark may be a client's retry, received again. On
 * data-units the mark stands in for the {@link UplinkDigest}, which only a sender's reused key needs.
 */
public final class MintedId {

    /** The header on an uplinks.encoded or data-units record whose uplink id ingest minted, one byte 1. */
    public static final String HEADER = "iot-id-minted";

    private static final byte[] MINTED = {1};

    private MintedId() {}

    public static void mark(Headers headers) {
        headers.add(HEADER, MINTED);
    }

    public static boolean isMarked(Headers headers) {
        var header = headers.lastHeader(HEADER);
        return header != null && header.value() != null && header.value().length == 1 && header.value()[0] == 1;
    }
}
