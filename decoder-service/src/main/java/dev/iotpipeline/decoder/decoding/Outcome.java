package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EncodedUplink;
import java.util.List;

/** The result of decoding one record: a data unit, or a dead letter with its cause, reason and codec. */
sealed interface Outcome {

    /**
     * The uplink's data unit, one more per history record it carried, and the uplink, whose {@link
     * dev.iotpipeline.kafka.topic.UplinkDigest} travels with each unless ingest minted its id, so the store can tell a
     * conflicting retry.
     */
    record Decoded(DataUnit dataUnit, List<DataUnit> history, EncodedUplink uplink) implements Outcome {}

    record DeadLetter(DeadLetterCause cause, String reason, String deviceType, String codec) implements Outcome {}
}
