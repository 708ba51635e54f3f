package dev.iotpipeline.events;

/**
 * How one codec output field becomes a measurement: renamed to {@code name} (a canonical name from
 * {@link MeasurementCatalogue} where one fits), multiplied by {@code scale} then shifted by {@code offset},
 * or dropped. Null fields leave that aspect unchanged.
 */
public record FieldMapping(String name, Double scale, Double offset, Boolean drop) {

    public static FieldMapping rename(String name) {
        return new FieldMapping(name, null, null, null);
    }

    public boolean dropped() {
        return Boolean.TRUE.equals(drop);
    }

    public static FieldMapping dropping() {
        return new FieldMapping(null, null, null, true);
    }

    public double apply(double value) {
        return value * (scale == null ? 1 : scale) + (offset == null ? 0 : offset);
    }
}
