package dev.iotpipeline.decoder.codec;

import java.util.LinkedHashMap;

/**
 * Dragino LHT65 temperature and humidity sensor, fPort 2 periodic data, big-endian, field names as in
 * Dragino's own TTN decoder (LHT65 user manual, "Decoder in TTN"): BatV, TempC_SHT, Hum_SHT and the
 * external probe (TempC_DS when the external sensor type byte is 0x01).
 */
final class Lht65Codec implements UplinkCodec {

    static final String NAME = "lht65";
    private static final int NO_EXTERNAL_READING = 0x7FFF;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decoded decode(byte[] bytes, Integer fPort) {
        if (fPort != null && fPort != 2) {
            throw new CodecException("lht65: fPort " + fPort + " carries no sensor data (expected 2)");
        }
        if (bytes.length < 11) {
            throw new CodecException("lht65: payload is " + bytes.length + " bytes, expected 11");
        }
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        measurements.put("BatV", (u16(bytes, 0) & 0x3FFF) / 1000.0);
        attributes.put("Bat_status", (bytes[0] & 0xFF) >> 6);
        measurements.put("TempC_SHT", s16(bytes, 2) / 100.0);
        measurements.put("Hum_SHT", u16(bytes, 4) / 10.0);
        int externalType = bytes[6] & 0x7F;
        attributes.put("Ext_sensor", externalType);
        if (externalType == 0x01 && u16(bytes, 7) != NO_EXTERNAL_READING) {
            measurements.put("TempC_DS", s16(bytes, 7) / 100.0);
        }
        return new Decoded(measurements, attributes);
    }

    private static int u16(byte[] bytes, int at) {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }

    private static int s16(byte[] bytes, int at) {
        return (short) u16(bytes, at);
    }
}
