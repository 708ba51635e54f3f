package dev.iotpipeline.decoder.codec;

import java.time.Duration;

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
     * {@code {data, warnings, errors}}, and an optional {@code normalizeUplink({data})} whose output is preferred),
     * ChirpStack v3's {@code Decode(fPort, bytes, variables)} and TTN v2's {@code Decoder(bytes, port)}, both
     * returning the decoded object itself.
     */
    public enum Form {
        DECODE_UPLINK("decodeUplink"), CHIRPSTACK_V3("Decode"), TTN_V2("Decoder");

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

    private JavaScriptCodec(String name, ScriptRunner runner) {
        this.name = name;
        this.runner = runner;
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
    public static JavaScriptCodec compile(String name, String source, Duration timeLimit, long allocationLimitBytes,
            long sizeLimitBytes, Duration compileTimeLimit) {
        return compile(name, source, timeLimit, allocationLimitBytes, sizeLimitBytes, compileTimeLimit, false);
    }

    /** As {@link #compile(String, String, Duration, long)}, for the interpreter only: tests run hostile scripts in both modes. */
    static JavaScriptCodec compileInterpreted(String name, String source, Duration timeLimit, long allocationLimitBytes) {
        return compile(name, source, timeLimit, allocationLimitBytes, DEFAULT_SIZE_LIMIT, DEFAULT_COMPILE_TIME_LIMIT,
                true);
    }

    private static JavaScriptCodec compile(String name, String original, Duration timeLimit, long allocationLimitBytes,
            long sizeLimitBytes, Duration compileTimeLimit, boolean interpretedOnly) {
        var compiled = ScriptCompiler.compile(name, original, sizeLimitBytes, interpretedOnly);
        var runner = new ScriptRunner(name, compiled, timeLimit, compileTimeLimit, allocationLimitBytes);
        runner.runTopLevel();
        return new JavaScriptCodec(name, runner);
    }

    @Override
    public String name() {
        return name;
    }

    /** The form the script was written in, found at compile time. */
    public Form form() {
        return runner.form();
    }

    /** Whether the script defines {@code normalizeUplink}, whose output the pipeline stores. */
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
        return runner.run(payload, fPort, false).result();
    }

    /**
     * What one payload decodes to, for a conformance check against a vendor's examples: the output of the form's
     * function and, when the script defines {@code normalizeUplink}, its output too. Throws as {@link #decode}
     * does; a {@link CodecErrorsException} when the script returned errors.
     */
    public Trial trial(byte[] payload, Integer fPort) {
        return runner.run(payload, fPort, true);
    }

    /**
     * The outputs of one decode: {@code normalized} is null when the script has no {@code normalizeUplink}, and for
     * any other codec, whose decode is the output itself.
     */
    public record Trial(Decoded output, Decoded normalized) {

        /** What the pipeline stores: the normalized output when there is one. */
        public Decoded result() {
            return normalized != null ? normalized : output;
        }
    }
}
