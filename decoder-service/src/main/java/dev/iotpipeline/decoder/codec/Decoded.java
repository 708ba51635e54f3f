package dev.iotpipeline.decoder.codec;

import java.util.Map;

/** What a codec read: numeric measurements by canonical name, and everything else as attributes. */
public record Decoded(Map<String, Double> measurements, Map<String, Object> attributes) {
}
