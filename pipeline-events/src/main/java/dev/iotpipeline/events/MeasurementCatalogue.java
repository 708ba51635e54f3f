package dev.iotpipeline.events;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The canonical measurement names and the unit each is always expressed in. */
public final class MeasurementCatalogue {

    private static final Map<String, String> UNITS = new TreeMap<>(Map.ofEntries(
            Map.entry("temperature", "°C"),
            Map.entry("externalTemperature", "°C"),
            Map.entry("humidity", "%RH"),
            Map.entry("battery", "%"),
            Map.entry("batteryVoltage", "V"),
            Map.entry("co2", "ppm"),
            Map.entry("tvoc", "ppb"),
            Map.entry("pressure", "hPa"),
            Map.entry("illuminance", "lx"),
            Map.entry("soilMoisture", "%"),
            Map.entry("distance", "mm"),
            Map.entry("waterLevel", "mm"),
            Map.entry("pm2_5", "µg/m³"),
            Map.entry("pm10", "µg/m³"),
            Map.entry("latitude", "°"),
            Map.entry("longitude", "°"),
            Map.entry("altitude", "m")));

    private MeasurementCatalogue() {}

    public static Optional<String> unitOf(String name) {
        return Optional.ofNullable(UNITS.get(name));
    }

    public static Map<String, String> all() {
        return UNITS;
    }
}
