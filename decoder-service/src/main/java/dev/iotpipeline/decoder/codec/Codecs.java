package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.FieldMapping;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The built-in codecs, and the codec a device type names: a built-in one or its compiled JavaScript. */
public final class Codecs {

    /** A built-in codec and the mapping its device type gets out of the box. */
    public record BuiltIn(UplinkCodec codec, Map<String, FieldMapping> mapping, String description) {}

    private static final List<BuiltIn> BUILT_INS = List.of(
            new BuiltIn(new Em300thCodec(), Map.of(), "Milesight EM300-TH temperature and humidity sensor"),
            new BuiltIn(
                    new Lht65Codec(),
                    Map.of(
                            "TempC_SHT", FieldMapping.rename("temperature"),
                            "Hum_SHT", FieldMapping.rename("humidity"),
                            "BatV", FieldMapping.rename("batteryVoltage"),
                            "TempC_DS", FieldMapping.rename("externalTemperature")),
                    "Dragino LHT65 temperature and humidity sensor"),
            new BuiltIn(new CayenneLppCodec(), Map.of(), "Cayenne Low Power Payload"),
            new BuiltIn(new JsonCodec(), Map.of(), "JSON payloads and ingest's decoded form"));

    private final Map<String, BuiltIn> byName;
    private final Duration scriptTimeLimit;
    private final long scriptAllocationLimit;
    private final long scriptSizeLimit;
    private final Duration scriptCompileTimeLimit;

    /**
     * Limits of every JavaScript codec: CPU time and allocation per call, size of the script in UTF-8 bytes, CPU
     * time of its parse and top level.
     */
    public Codecs(
            Duration scriptTimeLimit,
            long scriptAllocationLimit,
            long scriptSizeLimit,
            Duration scriptCompileTimeLimit) {
        this.byName = BUILT_INS.stream()
                .collect(Collectors.toUnmodifiableMap(b -> b.codec().name(), Function.identity()));
        this.scriptTimeLimit = scriptTimeLimit;
        this.scriptAllocationLimit = scriptAllocationLimit;
        this.scriptSizeLimit = scriptSizeLimit;
        this.scriptCompileTimeLimit = scriptCompileTimeLimit;
    }

    public Codecs(Duration scriptTimeLimit, long scriptAllocationLimit) {
        this(
                scriptTimeLimit,
                scriptAllocationLimit,
                JavaScriptCodec.DEFAULT_SIZE_LIMIT,
                JavaScriptCodec.DEFAULT_COMPILE_TIME_LIMIT);
    }

    public Codecs(Duration scriptTimeLimit) {
        this(scriptTimeLimit, JavaScriptCodec.DEFAULT_ALLOCATION_LIMIT);
    }

    public static Codecs builtIn() {
        return new Codecs(Duration.ofMillis(100));
    }

    public Optional<UplinkCodec> find(String name) {
        return Optional.ofNullable(byName.get(name)).map(BuiltIn::codec);
    }

    public List<BuiltIn> builtIns() {
        return BUILT_INS;
    }

    /**
     * The codec of a device type, compiled now if it is JavaScript and storing the output the type names as its
     * primary one ({@link PrimaryOutput#recorded}). Throws {@link InvalidScriptException}
     * for a script the sandbox or the engine refuses, whatever the engine threw, and
     * {@link IllegalArgumentException} for an unknown codec name.
     */
    public UplinkCodec resolve(DeviceType type) {
        if (DeviceType.JAVASCRIPT.equals(type.codec())) {
            if (type.script() == null || type.script().isBlank()) {
                throw new InvalidScriptException("codec javascript needs a script", 1, 1);
            }
            var codec = JavaScriptCodec.compile(
                    type.name(),
                    type.script(),
                    scriptTimeLimit,
                    scriptAllocationLimit,
                    scriptSizeLimit,
                    scriptCompileTimeLimit);
            return codec.storing(PrimaryOutput.recorded(type.primaryOutput(), codec.normalizes()));
        }
        return find(type.codec())
                .orElseThrow(
                        () -> new IllegalArgumentException("unknown codec '" + type.codec() + "'; built-in codecs are "
                                + byName.keySet().stream().sorted().toList() + " or javascript"));
    }
}
