package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.DataUnit;

/** The result of decoding one record: a data unit, or a dead letter with the reason. */
sealed interface Outcome {

    record Decoded(DataUnit dataUnit) implements Outcome {
    }

    record DeadLetter(String reason) implements Outcome {
    }
}
