package dev.iotpipeline.events;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One conformance example of a device type's codec, in the shape of The Things Network's codec YAML: a payload
 * and what the codec must make of it, or the errors with which it must refuse it.
 */
public record CodecExample(String description, Input input, Output output, Output normalizedOutput) {

    /** The uplink: its port and payload bytes (each 0..255). */
    public record Input(Integer fPort, List<Integer> bytes) {

        public Input {
            // Not List.copyOf: a null item must reach validation, which names it, not fail in the constructor.
            bytes = bytes == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(bytes));
        }
    }

    /**
     * What the codec returns: {@code data} (an object, or an array from {@code normalizeUplink}), and
     * {@code warnings} and {@code errors}; null {@code warnings} means "not compared", as TTN's examples do.
     */
    public record Output(JsonNode data, List<String> warnings, List<String> errors) {

        public Output {
            warnings = warnings == null ? null : Collections.unmodifiableList(new ArrayList<>(warnings));
            errors = errors == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(errors));
        }
    }
}
