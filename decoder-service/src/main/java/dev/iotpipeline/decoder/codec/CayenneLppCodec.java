package dev.iotpipeline.decoder.codec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cayenne Low Power Payload: (channel, type, value) items, values big-endian, as specified by myDevices
 * and decoded by The Things Stack's built-in LPP formatter; names are {@code <type>_<channel>}.
 */
final class CayenneLppCodec implements UplinkCodec {

    static final String NAME = "cayenne-lpp";

    private record Type(String name, int size, double divisor, boolean signed) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decoded decode(byte[] bytes, Integer fPort) {
        var measurements = new LinkedHashMap<String, Double>();
        int i = 0;
        while (i < bytes.length) {
            if (i + 2 > bytes.length) {
                throw new CodecException("cayenne-lpp: payload ends inside the item header at byte " + i);
            }
            int channel = bytes[i] & 0xFF;
            int typeId = bytes[i + 1] & 0xFF;
            i += 2;
            switch (typeId) {
                case 0x71 -> i = xyz(bytes, i, "accelerometer", channel, 1000.0, measurements);
                case 0x86 -> i = xyz(bytes, i, "gyrometer", channel, 100.0, measurements);
                case 0x88 -> {
                    require(bytes, i, 9, "gps");
                    measurements.put("gps_" + channel + "_latitude", s24(bytes, i) / 10000.0);
                    measurements.put("gps_" + channel + "_longitude", s24(bytes, i + 3) / 10000.0);
                    measurements.put("gps_" + channel + "_altitude", s24(bytes, i + 6) / 100.0);
                    i += 9;
                }
                default -> {
                    var type = scalar(typeId, i - 1);
                    require(bytes, i, type.size(), type.name());
                    long raw = unsigned(bytes, i, type.size());
                    if (type.signed() && (raw & (1L << (type.size() * 8 - 1))) != 0) {
                        raw -= 1L << (type.size() * 8);
                    }
                    measurements.put(type.name() + "_" + channel, raw / type.divisor());
                    i += type.size();
                }
            }
        }
        if (measurements.isEmpty()) {
            throw new CodecException("cayenne-lpp: payload holds no items");
        }
        return new Decoded(measurements, Map.of());
    }

    private static Type scalar(int typeId, int at) {
        return switch (typeId) {
            case 0x00 -> new Type("digital_in", 1, 1, false);
            case 0x01 -> new Type("digital_out", 1, 1, false);
            case 0x02 -> new Type("analog_in", 2, 100, true);
            case 0x03 -> new Type("analog_out", 2, 100, true);
            case 0x65 -> new Type("luminosity", 2, 1, false);
            case 0x66 -> new Type("presence", 1, 1, false);
            case 0x67 -> new Type("temperature", 2, 10, true);
            case 0x68 -> new Type("relative_humidity", 1, 2, false);
            case 0x73 -> new Type("barometric_pressure", 2, 10, false);
            default ->
                throw new CodecException(String.format("cayenne-lpp: unknown type 0x%02x at byte %d", typeId, at));
        };
    }

    private static int xyz(byte[] bytes, int at, String name, int channel, double divisor, Map<String, Double> out) {
        require(bytes, at, 6, name);
        out.put(name + "_" + channel + "_x", (short) unsigned(bytes, at, 2) / divisor);
        out.put(name + "_" + channel + "_y", (short) unsigned(bytes, at + 2, 2) / divisor);
        out.put(name + "_" + channel + "_z", (short) unsigned(bytes, at + 4, 2) / divisor);
        return at + 6;
    }

    private static long unsigned(byte[] bytes, int at, int size) {
        long value = 0;
        for (int k = 0; k < size; k++) {
            value = (value << 8) | (bytes[at + k] & 0xFF);
        }
        return value;
    }

    private static int s24(byte[] bytes, int at) {
        int value = (int) unsigned(bytes, at, 3);
        return (value & 0x800000) != 0 ? value - 0x1000000 : value;
    }

    private static void require(byte[] bytes, int at, int length, String what) {
        if (at + length > bytes.length) {
            throw new CodecException("cayenne-lpp: payload ends inside " + what + " at byte " + at);
        }
    }
}
