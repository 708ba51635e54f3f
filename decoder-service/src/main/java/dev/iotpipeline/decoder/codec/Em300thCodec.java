package dev.iotpipeline.decoder.codec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Milesight EM300-TH: a sequence of (channel, type, value) items, values little-endian, as in the
 * vendor's decoder (Milesight-IoT/SensorDecoders, EM300_Series/EM300-TH), including the {@code 20 CE}
 * history record (uint32 LE Unix time, int16 LE temperature / 10, uint8 humidity / 2).
 */
final class Em300thCodec implements UplinkCodec {

    static final String NAME = "em300th";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decoded decode(byte[] bytes, Integer fPort) {
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        var history = new ArrayList<Decoded.HistoryPoint>();
        int i = 0;
        while (i < bytes.length) {
            require(bytes, i, 2, "item header");
            int channel = bytes[i] & 0xFF;
            int type = bytes[i + 1] & 0xFF;
            i += 2;
            switch ((channel << 8) | type) {
                case 0x0175 -> {
                    require(bytes, i, 1, "battery");
                    measurements.put("battery", (double) (bytes[i] & 0xFF));
                    i += 1;
                }
                case 0x0367 -> {
                    require(bytes, i, 2, "temperature");
                    measurements.put("temperature", int16(bytes, i) / 10.0);
                    i += 2;
                }
                case 0x0468 -> {
                    require(bytes, i, 1, "humidity");
                    measurements.put("humidity", (bytes[i] & 0xFF) / 2.0);
                    i += 1;
                }
                case 0x20CE -> {
                    require(bytes, i, 7, "history record");
                    long timestamp = (bytes[i] & 0xFFL)
                            | (bytes[i + 1] & 0xFFL) << 8
                            | (bytes[i + 2] & 0xFFL) << 16
                            | (bytes[i + 3] & 0xFFL) << 24;
                    history.add(new Decoded.HistoryPoint(
                            Instant.ofEpochSecond(timestamp),
                            Map.of(
                                    "temperature",
                                    int16(bytes, i + 4) / 10.0,
                                    "humidity",
                                    (bytes[i + 6] & 0xFF) / 2.0)));
                    i += 7;
                }
                case 0xFF01, 0xFF0B, 0xFF0F -> {
                    require(bytes, i, 1, "device info");
                    attributes.put(infoName(type), bytes[i] & 0xFF);
                    i += 1;
                }
                case 0xFF09, 0xFF0A, 0xFFFF -> {
                    require(bytes, i, 2, "device info");
                    attributes.put(infoName(type), HexFormat.of().formatHex(bytes, i, i + 2));
                    i += 2;
                }
                case 0xFF16 -> {
                    require(bytes, i, 8, "serial number");
                    attributes.put("sn", HexFormat.of().formatHex(bytes, i, i + 8));
                    i += 8;
                }
                default ->
                    throw new CodecException(String.format(
                            "em300th: unknown item channel 0x%02x type 0x%02x at byte %d", channel, type, i - 2));
            }
        }
        if (measurements.isEmpty() && attributes.isEmpty() && history.isEmpty()) {
            throw new CodecException("em300th: payload holds no items");
        }
        return new Decoded(measurements, attributes, history);
    }

    private static String infoName(int type) {
        return switch (type) {
            case 0x01 -> "ipsoVersion";
            case 0x09 -> "hardwareVersion";
            case 0x0A -> "firmwareVersion";
            case 0x0B -> "powerOn";
            case 0x0F -> "deviceClass";
            default -> "tslVersion";
        };
    }

    private static int int16(byte[] bytes, int at) {
        return (short) ((bytes[at] & 0xFF) | (bytes[at + 1] << 8));
    }

    private static void require(byte[] bytes, int at, int length, String what) {
        if (at + length > bytes.length) {
            throw new CodecException(
                    String.format("em300th: payload ends inside %s at byte %d (length %d)", what, at, bytes.length));
        }
    }
}
