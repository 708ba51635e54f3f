package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.registry.ResolvedDeviceType;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.FieldMapping;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH benchmarks of the decoder's per-record work: one uplinks.encoded record decoded into a data unit (built-in and JavaScript codecs), and the data unit's serde. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecoderJmh {

    static final String EM300TH_FRAME = "01755C03673401046865";
    static final String LHT65_FRAME = "CBF60B0D0376010ADD7FFF";

    UplinkDecoder decoder;
    /** uplinks.encoded record values as ingest writes them, one per device type. */
    byte[] em300thRecord;

    byte[] em300thScriptRecord;
    byte[] lht65Record;
    DataUnit dataUnit;
    byte[] dataUnitRecord;
    Serializer<DataUnit> serializer;

    @Setup
    public void setUp() {
        // As RegistryConfig and DecodingConfig build them, with the default script limits.
        var codecs = new Codecs(Duration.ofMillis(100));
        var types = new ConcurrentHashMap<String, ResolvedDeviceType>();
        var now = Instant.now();
        for (var type : new DeviceType[] {
            new DeviceType("em300th", 1, "em300th", null, null, null, now),
            new DeviceType(
                    "em300th-js", 1, DeviceType.JAVASCRIPT, script("/scripts/em300th-ttn-style.js"), null, null, now),
            new DeviceType(
                    "lht65",
                    1,
                    "lht65",
                    null,
                    Map.of(
                            "TempC_SHT",
                            FieldMapping.rename("temperature"),
                            "Hum_SHT",
                            FieldMapping.rename("humidity"),
                            "BatV",
                            FieldMapping.rename("batteryVoltage"),
                            "TempC_DS",
                            FieldMapping.rename("externalTemperature")),
                    null,
                    now)
        }) {
            types.put(type.name(), new ResolvedDeviceType(type, codecs.resolve(type), null));
        }
        decoder = new UplinkDecoder(name -> Optional.ofNullable(types.get(name)), Clock.systemUTC());
        em300thRecord = record("em300th", EM300TH_FRAME, 85);
        em300thScriptRecord = record("em300th-js", EM300TH_FRAME, 85);
        lht65Record = record("lht65", LHT65_FRAME, 2);
        serializer = PipelineTopic.DATA_UNITS.valueSerde().serializer();
        dataUnit = ((Outcome.Decoded) decoder.decode(em300thRecord)).dataUnit();
        dataUnitRecord = serializer.serialize(PipelineTopic.DATA_UNITS.topicName(), dataUnit);
    }

    /** An EM300-TH frame through the built-in codec (no field mapping). */
    @Benchmark
    public Outcome decodeBuiltIn() {
        return decoder.decode(em300thRecord);
    }

    /** An LHT65 frame through the built-in codec and its device type's field mapping. */
    @Benchmark
    public Outcome decodeBuiltInMapped() {
        return decoder.decode(lht65Record);
    }

    /** The same EM300-TH frame through a small decodeUplink(input) JavaScript codec in the Rhino sandbox. */
    @Benchmark
    public Outcome decodeJavaScript() {
        return decoder.decode(em300thScriptRecord);
    }

    /** The data-units record value the decoder produces for one data unit. */
    @Benchmark
    public byte[] serializeDataUnit() {
        return serializer.serialize(PipelineTopic.DATA_UNITS.topicName(), dataUnit);
    }

    /** A data-units record value read back, as rules and notify do for every record. */
    @Benchmark
    public DataUnit readDataUnit() {
        return PipelineTopic.DATA_UNITS.read(dataUnitRecord);
    }

    private static byte[] record(String deviceType, String hex, int fPort) {
        var uplink = new EncodedUplink(
                Ids.newId(),
                EncodedUplink.SCHEMA_VERSION,
                "irrigation",
                deviceType,
                "dev-1",
                fPort,
                HexFormat.of().parseHex(hex),
                Instant.now(),
                null,
                Map.of("networkServer", "tts", "rssi", -35, "snr", 5, "gateways", 1));
        return PipelineTopic.UPLINKS_ENCODED
                .valueSerde()
                .serializer()
                .serialize(PipelineTopic.UPLINKS_ENCODED.topicName(), uplink);
    }

    private static String script(String resource) {
        try (var in = DecoderJmh.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
