package dev.iotpipeline.decoder.codec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JavaScript payload formatter in any of the forms vendors publish ({@link Form}), run in {@link ScriptSandbox}.
 */
public final class JavaScriptCodec implements UplinkCodec {

    /** Default allocation budget of one call. */
    public static final long DEFAULT_ALLOCATION_LIMIT = 32L << 20;

    /** Default size limit of a script, in UTF-8 bytes: real vendor codecs reach about 100 KB. */
    public static final long DEFAULT_SIZE_LIMIT = 256L << 10;

    /**
     * Default CPU time of a script's top level, run once per change and once per decoding thread: a 100 KB vendor
     * codec fills its tables there, which on a loaded machine takes far longer than one decode.
     */
    public static final Duration DEFAULT_COMPILE_TIME_LIMIT = Duration.ofSeconds(2);

    /**
     * The script forms, by the function the script defines (the first found, in this order): The Things Stack's
     * {@code decodeUplink(input)} (TS013: {@code input.bytes}, {@code fPort}, {@code recvTime}; returns
     * {@code {data, warnings, errors}}, and an optional {@code normalizeUplink({data})} whose output is kept too),
     * ChirpStack v3's {@code Decode(fPort, bytes, variables)} and TTN v2's {@code Decoder(bytes, port)}, both
     * returning the decoded object itself.
     */
    public enum Form {
        DECODE_UPLINK("decodeUplink"),
        CHIRPSTACK_V3("Decode"),
        TTN_V2("Decoder");

        private final String function;

        Form(String function) {
            this.function = function;
        }

        public String function() {
            return function;
        }
    }

    private final String name;
    private final ScriptRunner runner;
    private final PrimaryOutput primary;

    private JavaScriptCodec(String name, ScriptRunner runner, PrimaryOutput primary) {
        this.name = name;
        this.runner = runner;
        this.primary = primary;
    }

    public static JavaScriptCodec compile(String name, String source, Duration timeLimit) {
        return compile(name, source, timeLimit, DEFAULT_ALLOCATION_LIMIT);
    }

    public static JavaScriptCodec compile(String name, String source, Duration timeLimit, long allocationLimitBytes) {
        return compile(name, source, timeLimit, allocationLimitBytes, DEFAULT_SIZE_LIMIT, DEFAULT_COMPILE_TIME_LIMIT);
    }

    /**
     * Throws {@link InvalidScriptException}, never another exception, for a script the engine or the sandbox
     * refuses: larger than {@code sizeLimitBytes}, a syntax error or forbidden name (with its position), a top
     * level that throws or breaks its limits ({@code compileTimeLimit} of CPU time), none of the {@link Form}
     * functions, or a failure of the engine itself.
     */
    public static JavaScriptCodec compile(
            String name,
            String source,
            Duration timeLimit,
            long allocationLimitBytes,
            long sizeLimitBytes,
            Duration compileTimeLimit) {
        return compile(name, source, timeLimit, allocationLimitBytes, sizeLimitBytes, compileTimeLimit, false);
    }

    /** As {@link #compile(String, String, Duration, long)}, for the interpreter only: tests run hostile scripts in both modes. */
    static JavaScriptCodec compileInterpreted(
            String name, String source, Duration timeLimit, long allocationLimitBytes) {
        return compile(
                name, source, timeLimit, allocationLimitBytes, DEFAULT_SIZE_LIMIT, DEFAULT_COMPILE_TIME_LIMIT, true);
    }

    private static JavaScriptCodec compile(
            String name,
            String original,
            Duration timeLimit,
            long allocationLimitBytes,
            long sizeLimitBytes,
            Duration compileTimeLimit,
            boolean interpretedOnly) {
        var compiled = ScriptCompiler.compile(name, original, sizeLimitBytes, interpretedOnly);
        var runner = new ScriptRunner(name, compiled, timeLimit, compileTimeLimit, allocationLimitBytes);
        runner.runTopLevel();
        return new JavaScriptCodec(name, runner, PrimaryOutput.DECODED);
    }

    /** The same compiled script, storing {@code primary} under its own names; costs no compilation. */
    public JavaScriptCodec storing(PrimaryOutput primary) {
        return primary == this.primary ? this : new JavaScriptCodec(name, runner, primary);
    }

    /** Which output a data unit carries under its own names when the script defines {@code normalizeUplink}. */
    public PrimaryOutput primary() {
        return primary;
    }

    @Override
    public String name() {
        return name;
    }

    /** The form the script was written in, found at compile time. */
    public Form form() {
        return runner.form();
    }

    /** Whether the script defines {@code normalizeUplink}, whose output the pipeline stores beside the decoded one. */
    public boolean normalizes() {
        return runner.normalizes();
    }

    /** Whether Rhino's bytecode generator failed on the script, so that it runs in the interpreter. */
    boolean interpreted() {
        return runner.interpreted();
    }

    /**
     * Throws {@link CodecException}, never another exception, whatever the script or the engine does: a
     * {@link CodecTimeoutException} for the time limit, also when the script caught what followed it.
     */
    @Override
    public Decoded decode(byte[] payload, Integer fPort) {
        return runner.run(payload, fPort).stored(primary);
    }

    /**
     * What one payload decodes to, for a conformance check against a vendor's examples: the output of the form's
     * function and, when the script defines {@code normalizeUplink}, its output too. Throws as {@link #decode}
     * does; a {@link CodecErrorsException} when the script returned errors.
     */
    public Trial trial(byte[] payload, Integer fPort) {
        return runner.run(payload, fPort);
    }

    /**
     * The outputs of one decode, each with its own function's warnings: {@code normalized} is null when the script
     * has no {@code normalizeUplink}, and for any other codec, whose decode is the output itself.
     */
    public record Trial(Decoded output, Decoded normalized) {

        /**
         * What a data unit carries: the {@code primary} output under its own names, the other under
         * {@link PrimaryOutput#otherPrefix()}, and the warnings of both functions. A name of the other output that
         * the primary one already holds is left out with a warning that quotes its value, never silently.
         */
        public Decoded stored(PrimaryOutput primary) {
            if (normalized == null) {
                return output;
            }
            var first = primary == PrimaryOutput.DECODED ? output : normalized;
            var second = primary == PrimaryOutput.DECODED ? normalized : output;
            var measurements = new LinkedHashMap<>(first.measurements());
            var attributes = new LinkedHashMap<>(first.attributes());
            attributes.remove(Decoded.WARNINGS);
            var warnings = new ArrayList<>(warnings(output));
            warnings.addAll(warnings(normalized));
            var prefix = primary.otherPrefix();
            second.measurements()
                    .forEach((field, value) ->
                            add(prefix + field, value, measurements, measurements, attributes, warnings));
            second.attributes().forEach((field, value) -> {
                if (!Decoded.WARNINGS.equals(field)) {
                    add(prefix + field, value, attributes, measurements, attributes, warnings);
                }
            });
            if (!warnings.isEmpty()) {
                attributes.put(Decoded.WARNINGS, List.copyOf(warnings));
            }
            return new Decoded(measurements, attributes, first.history());
        }

        private static <V> void add(
                String name,
                V value,
                Map<String, V> into,
                Map<String, Double> measurements,
                Map<String, Object> attributes,
                List<String> warnings) {
            if (measurements.containsKey(name) || attributes.containsKey(name)) {
                warnings.add(name + " (" + value + ") is left out: the primary output has a field of that name");
            } else {
                into.put(name, value);
            }
        }

        private static List<String> warnings(Decoded decoded) {
            return decoded.attributes().get(Decoded.WARNINGS) instanceof List<?> list
                    ? list.stream().map(String::valueOf).toList()
                    : List.of();
        }
    }
}
