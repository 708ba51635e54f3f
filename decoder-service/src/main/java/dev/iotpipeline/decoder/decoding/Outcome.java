package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.DataUnit;

/** The result of decoding one record: a data unit, or a dead letter with its cause, reason and codec. */
sealed interface Outcome {

    /** The uplink's data unit, and one more per history record it carried. */
    record Decoded(DataUnit dataUnit, java.util.List<DataUnit> history) implements Outcome {
    }

    record DeadLetter(DeadLetterCause cause, String reason, String deviceType, String codec) implements Outcome {
    }
}
