package dev.iotpipeline.decoder.codec;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    /** Values one decoded message may hold in all; a LoRaWAN payload is at most 242 bytes. */
    static final int MAX_RESULT_VALUES = 10_000;

    /** Levels of nested objects in {@code data}. */
    static final int MAX_DATA_DEPTH = 32;

    /** Errors quoted in the dead-letter reason when a script reports more. */
    static final int MAX_ERRORS_SHOWN = 10;

    private static final Logger log = LoggerFactory.getLogger(JavaScriptCodec.class);

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

    private static final String NORMALIZE = "normalizeUplink";

    private static final java.time.format.DateTimeFormatter ISO_MILLIS =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);

    private final String name;
    private final Script script;
    private final boolean interpreted;
    private final long timeLimitNanos;
    private final long compileTimeLimitNanos;
    private final long allocationLimitBytes;
    private final boolean transpiled;
    private final ThreadLocal<ThreadScope> scopes = new ThreadLocal<>();
    private Form form = Form.DECODE_UPLINK;
    private boolean normalizes;

    /**
     * A thread's scope, and what the calls run in it have allocated so far. The script is compiled once; each
     * thread runs it in a scope of its own, reused for every message until a call breaks a limit or the engine,
     * or the calls in it have allocated one call's budget in all: a script can keep what it allocates in its
     * globals from one call to the next, and renewing the scope bounds what it keeps.
     */
    private static final class ThreadScope {
        final Scriptable scope;
        long allocated;

        ThreadScope(Scriptable scope) {
            this.scope = scope;
        }
    }

    private JavaScriptCodec(String name, Script script, boolean interpreted, boolean transpiled, Duration timeLimit,
            Duration compileTimeLimit, long allocationLimitBytes) {
        this.name = name;
        this.script = script;
        this.interpreted = interpreted;
        this.transpiled = transpiled;
        this.timeLimitNanos = timeLimit.toNanos();
        this.compileTimeLimitNanos = compileTimeLimit.toNanos();
        this.allocationLimitBytes = allocationLimitBytes;
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
        requireSize(original, sizeLimitBytes);
        var sourceName = name + ".js";
        var source = original;
        boolean transpiled = false;
        try {
            ScriptSandbox.check(source, sourceName);
        } catch (InvalidScriptException e) {
            if (!e.syntax()) {
                throw e;
            }
            // Syntax Rhino does not know (classes, for…of over const, spread arguments, const redeclared in a
            // sibling block): the same script rewritten to ES5 runs in the same sandbox. A real syntax error is
            // refused by Closure's parser, with its position in the original.
            var es5 = ModernSyntax.toEs5(original, sourceName);
            ScriptSandbox.check(es5.userCode(), sourceName, original);
            source = es5.code();
            transpiled = true;
        }
        Script script = null;
        boolean interpreted = interpretedOnly;
        if (!interpreted) {
            try {
                script = compileScript(source, sourceName, false);
            } catch (RuntimeException | StackOverflowError e) {
                // The script parsed, so this is Rhino's bytecode generator failing on it: JVM method and
                // constant-pool limits ("Program too complex") or its own bugs on large literals (an
                // IllegalStateException from the stack map). The interpreter has neither and runs the same script.
                log.info("JavaScript codec {} runs interpreted: Rhino's bytecode generator failed on it ({})", name,
                        e.toString());
                interpreted = true;
            }
        }
        if (interpreted) {
            try {
                script = compileScript(source, sourceName, true);
            } catch (EvaluatorException e) {
                throw InvalidScriptException.at(e.details(), e.lineNumber(), e.columnNumber());
            } catch (RuntimeException e) {
                throw new InvalidScriptException("the engine failed to compile the script: " + e);
            } catch (StackOverflowError e) {
                throw new InvalidScriptException("the script nests too deeply for the engine to compile");
            }
        }
        var codec = new JavaScriptCodec(name, script, interpreted, transpiled, timeLimit, compileTimeLimit,
                allocationLimitBytes);
        codec.runTopLevel();
        return codec;
    }

    private static Script compileScript(String source, String sourceName, boolean interpreted) {
        try (var cx = ScriptSandbox.INSTANCE.enterContext()) {
            cx.setInterpretedMode(interpreted);
            return cx.compileString(source, sourceName, 1, null);
        }
    }

    private static void requireSize(String source, long sizeLimitBytes) {
        long size = source.length() > sizeLimitBytes ? source.length() : utf8Length(source);
        if (size > sizeLimitBytes) {
            throw new InvalidScriptException("the script is " + size(size) + ", over the limit of "
                    + size(sizeLimitBytes) + " (decoder.codecs.script-size-limit)");
        }
    }

    private static long utf8Length(String source) {
        long bytes = 0;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < source.length()
                    && Character.isLowSurrogate(source.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Runs the top level once under its limits, and finds the form by the function it defines. */
    private void runTopLevel() {
        var cx = enter();
        try {
            var scope = standardObjects(cx);
            cx.limit(compileTimeLimitNanos, allocationLimitBytes);
            script.exec(cx, scope, scope);
            Form found = null;
            for (var candidate : Form.values()) {
                if (found == null && ScriptableObject.getProperty(scope, candidate.function()) instanceof Function) {
                    found = candidate;
                }
            }
            cx.checkFinished();
            if (found == null) {
                throw new InvalidScriptException("the script defines none of the functions decodeUplink(input), "
                        + "Decode(fPort, bytes, variables) (ChirpStack v3) or Decoder(bytes, port) (TTN v2)");
            }
            form = found;
            normalizes = found == Form.DECODE_UPLINK
                    && ScriptableObject.getProperty(scope, NORMALIZE) instanceof Function;
        } catch (InvalidScriptException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError | AssertionError
                | ScriptSandbox.Timeout | ScriptSandbox.OutOfBudget e) {
            if (e instanceof RhinoException rhino && cx.exceeded() == null) {
                throw InvalidScriptException.at(rhino.details(), rhino.lineNumber(), rhino.columnNumber());
            }
            throw new InvalidScriptException("the script's top level " + describe(cx, e, compileTimeLimitNanos)
                    + (cx.exceeded() instanceof ScriptSandbox.Timeout ? " (decoder.codecs.script-compile-time-limit)"
                    : ""));
        } finally {
            Context.exit();
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The form the script was written in, found at compile time. */
    public Form form() {
        return form;
    }

    /** Whether the script defines {@code normalizeUplink}, whose output the pipeline stores. */
    public boolean normalizes() {
        return normalizes;
    }

    /** Whether Rhino's bytecode generator failed on the script, so that it runs in the interpreter. */
    boolean interpreted() {
        return interpreted;
    }

    /**
     * Throws {@link CodecException}, never another exception, whatever the script or the engine does: a
     * {@link CodecTimeoutException} for the time limit, also when the script caught what followed it.
     */
    @Override
    public Decoded decode(byte[] payload, Integer fPort) {
        return run(payload, fPort, false).result();
    }

    /**
     * What one payload decodes to, for a conformance check against a vendor's examples: the output of the form's
     * function and, when the script defines {@code normalizeUplink}, its output too. Throws as {@link #decode}
     * does; a {@link CodecErrorsException} when the script returned errors.
     */
    public Trial trial(byte[] payload, Integer fPort) {
        return run(payload, fPort, true);
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

    private Trial run(byte[] payload, Integer fPort, boolean keepOutput) {
        var state = scopes.get();
        boolean keep = false;
        var cx = enter();
        try {
            if (state == null) {
                // This thread's first call runs the top level first, under the top level's own time limit.
                var scope = standardObjects(cx);
                cx.limit(compileTimeLimitNanos, allocationLimitBytes);
                script.exec(cx, scope, scope);
                cx.checkFinished();
                state = new ThreadScope(scope);
            }
            cx.limit(timeLimitNanos, allocationLimitBytes);
            var scope = state.scope;
            var bytes = new Object[payload.length];
            for (int i = 0; i < payload.length; i++) {
                bytes[i] = payload[i] & 0xFF;
            }
            var byteArray = cx.newArray(scope, bytes);
            var port = fPort == null ? null : Integer.valueOf(fPort);
            if (!(ScriptableObject.getProperty(scope, form.function()) instanceof Function decodeFunction)) {
                throw new CodecException("javascript codec " + name + " no longer has a function " + form.function());
            }
            Trial decoded;
            try {
                decoded = switch (form) {
                    case DECODE_UPLINK -> {
                        var input = cx.newObject(scope);
                        ScriptableObject.putProperty(input, "bytes", byteArray);
                        ScriptableObject.putProperty(input, "fPort", port);
                        ScriptableObject.putProperty(input, "recvTime", cx.newObject(scope, "Date",
                                new Object[] {(double) System.currentTimeMillis()}));
                        yield normalized(cx, scope, decodeFunction.call(cx, scope, scope, new Object[] {input}),
                                keepOutput);
                    }
                    case CHIRPSTACK_V3 -> new Trial(fields(decodeFunction.call(cx, scope, scope,
                            new Object[] {port, byteArray, cx.newObject(scope)}), List.of()), null);
                    case TTN_V2 -> new Trial(fields(decodeFunction.call(cx, scope, scope,
                            new Object[] {byteArray, port}), List.of()), null);
                };
            } catch (CodecException | RhinoException e) {
                // The script's own failure on this payload: its scope is as good as before, unless a limit hid
                // behind it (a finally that threw after the timeout).
                keep = cx.exceeded() == null;
                state.allocated += Math.max(0, cx.allocatedInCall());
                throw e;
            }
            state.allocated += Math.max(0, cx.checkFinished());
            keep = true;
            return decoded;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError | AssertionError
                | ScriptSandbox.Timeout | ScriptSandbox.OutOfBudget e) {
            throw failure(cx, e);
        } finally {
            if (state == null || !keep || state.allocated > allocationLimitBytes) {
                scopes.remove();
            } else if (scopes.get() != state) {
                scopes.set(state);
            }
            Context.exit();
        }
    }

    private static ScriptSandbox.SandboxContext enter() {
        return (ScriptSandbox.SandboxContext) ScriptSandbox.INSTANCE.enterContext();
    }

    /** The failure of a call: the limit it broke, even when the script caught what followed, else its error. */
    private CodecException failure(ScriptSandbox.SandboxContext cx, Throwable e) {
        if (e instanceof CodecException codec && cx.exceeded() == null) {
            return codec;
        }
        var message = "javascript codec " + name + " " + describe(cx, e, timeLimitNanos);
        return cx.exceeded() instanceof ScriptSandbox.Timeout || e instanceof ScriptSandbox.Timeout
                ? new CodecTimeoutException(message) : new CodecException(message);
    }

    /** What went wrong, as the rest of a sentence whose subject is the codec or its top level. */
    private String describe(ScriptSandbox.SandboxContext cx, Throwable e, long timeLimitNanos) {
        var limit = cx.exceeded() != null ? cx.exceeded() : e;
        long limitMillis = Duration.ofNanos(timeLimitNanos).toMillis();
        if (limit instanceof ScriptSandbox.Timeout timeout) {
            return switch (timeout.clock) {
                case CPU -> "exceeded its time limit of " + limitMillis + " ms of CPU time";
                case WALL -> "exceeded its time limit of " + limitMillis + " ms (wall clock: this thread has no "
                        + "CPU-time counter)";
                case BACKSTOP -> "exceeded its wall-clock backstop of "
                        + Duration.ofNanos(ScriptSandbox.backstop(timeLimitNanos)).toMillis() + " ms (time limit "
                        + limitMillis + " ms of CPU time)";
            };
        }
        if (limit instanceof ScriptSandbox.OutOfBudget) {
            return "allocated more than its budget of " + size(allocationLimitBytes);
        }
        return switch (e) {
            case RhinoException rhino -> "failed: " + rhino.details() + " (line " + rhino.lineNumber()
                    + (transpiled ? " of the script as rewritten to ES5" : "") + ")";
            case StackOverflowError overflow -> "failed: too much recursion";
            case OutOfMemoryError memory -> "ran the JVM out of memory in one step (its budget is "
                    + size(allocationLimitBytes) + " per call)";
            default -> "failed in the engine: " + e;
        };
    }

    /**
     * A fresh global scope, before the script's top level runs in it: host work of a bounded size, outside the
     * limits, which would otherwise charge the first call of a thread with Rhino's own lazy initialisation.
     */
    private static Scriptable standardObjects(Context cx) {
        var scope = cx.initSafeStandardObjects();
        ScriptBuiltins.harden(cx, scope);
        return scope;
    }

    /**
     * The result of {@code decodeUplink}, or of {@code normalizeUplink} given its data when the script defines
     * one: normalized output uses the canonical names, so it is preferred. Warnings of both are kept.
     */
    private Trial normalized(Context cx, Scriptable scope, Object returned, boolean keepOutput) {
        var decoded = checked(returned);
        var warnings = warnings(decoded);
        var data = ScriptableObject.getProperty(decoded, "data");
        // Looked up only when the top level defined it: a missing name walks the scope chain on every call.
        if (normalizes && ScriptableObject.getProperty(scope, NORMALIZE) instanceof Function normalize) {
            var output = keepOutput ? fields(data, warnings) : null;
            var input = cx.newObject(scope);
            ScriptableObject.putProperty(input, "data", data);
            var normalizedResult = checked(normalize.call(cx, scope, scope, new Object[] {input}));
            var all = new java.util.ArrayList<>(warnings);
            all.addAll(warnings(normalizedResult));
            return new Trial(output, fields(ScriptableObject.getProperty(normalizedResult, "data"), all));
        }
        return new Trial(fields(data, warnings), null);
    }

    /** A {@code {data, warnings, errors}} result whose {@code errors} is empty; errors dead-letter the message. */
    private Scriptable checked(Object returned) {
        var prefix = "javascript codec " + name + " ";
        if (!(returned instanceof Scriptable result)) {
            throw new CodecException(prefix + "returned no object");
        }
        var errors = ScriptableObject.getProperty(result, "errors");
        if (errors instanceof NativeArray list && list.getLength() > 0) {
            long count = list.getLength();
            new Values(prefix).add(count);
            var all = list.stream().map(String::valueOf).toList();
            throw new CodecErrorsException(prefix + "reported errors: "
                    + String.join("; ", all.subList(0, (int) Math.min(count, MAX_ERRORS_SHOWN)))
                    + (count > MAX_ERRORS_SHOWN ? "; … (" + count + " in all)" : ""), all);
        }
        return result;
    }

    private List<String> warnings(Scriptable result) {
        var warnings = ScriptableObject.getProperty(result, "warnings");
        if (!(warnings instanceof NativeArray list) || list.getLength() == 0) {
            return List.of();
        }
        new Values("javascript codec " + name + " ").add(list.getLength());
        return list.stream().map(String::valueOf).toList();
    }

    /** The decoded object (or, from {@code normalizeUplink}, an array of them) flattened into a {@link Decoded}. */
    private Decoded fields(Object data, List<String> warnings) {
        var prefix = "javascript codec " + name + " ";
        var values = new Values(prefix);
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        if (data instanceof NativeArray array) {
            values.add(array.getLength());
            for (int i = 0; i < (int) array.getLength(); i++) {
                leaf(Integer.toString(i), array.get(i), 0, values, measurements, attributes);
            }
        } else if (data instanceof Map<?, ?> fields && !(data instanceof NativeArray)) {
            flatten("", fields, 0, values, measurements, attributes);
        } else {
            throw new CodecException(prefix + "returned no data object");
        }
        if (!warnings.isEmpty()) {
            values.add(warnings.size());
            attributes.put("codecWarnings", warnings);
        }
        return new Decoded(measurements, attributes);
    }

    /**
     * Counts what a result holds, because reading it is host work no instruction count sees: an array of length
     * 2^32-1 is one assignment for the script and four billion steps for the host.
     */
    private static final class Values {
        private final String prefix;
        private long count;

        Values(String prefix) {
            this.prefix = prefix;
        }

        void add(long values) {
            count += values;
            if (count > MAX_RESULT_VALUES) {
                throw new CodecException(prefix + "returned more than " + MAX_RESULT_VALUES
                        + " values (measurements, attributes, list items and warnings)");
            }
        }
    }

    /**
     * Every numeric leaf is a measurement and every other leaf an attribute, named by its path: nested objects
     * as {@code parent.child}, array items by index ({@code readings.0.value}), so arrays of objects keep every
     * value. Booleans stay booleans, dates become ISO-8601 strings, null and undefined are left out.
     */
    private static void flatten(String prefix, Map<?, ?> fields, int depth, Values values,
            Map<String, Double> measurements, Map<String, Object> attributes) {
        if (depth > MAX_DATA_DEPTH) {
            throw new CodecException(values.prefix + "returned data nested more than " + MAX_DATA_DEPTH + " levels");
        }
        fields.forEach((key, value) -> leaf(prefix + key, value, depth, values, measurements, attributes));
    }

    private static void leaf(String name, Object value, int depth, Values values, Map<String, Double> measurements,
            Map<String, Object> attributes) {
        values.add(1);
        if (value instanceof Number number) {
            // NaN and the infinities are no reading; a measurement column never holds them.
            if (Double.isFinite(number.doubleValue())) {
                measurements.put(name, number.doubleValue());
            }
        } else if (value instanceof NativeArray array) {
            if (depth + 1 > MAX_DATA_DEPTH) {
                throw new CodecException(values.prefix + "returned data nested more than " + MAX_DATA_DEPTH + " levels");
            }
            values.add(array.getLength());
            for (int i = 0; i < (int) array.getLength(); i++) {
                leaf(name + "." + i, array.get(i), depth + 1, values, measurements, attributes);
            }
        } else if (value instanceof Scriptable date && "Date".equals(date.getClassName())) {
            double millis = Context.toNumber(date);
            if (Double.isFinite(millis)) {
                // As JavaScript's toISOString and JSON.stringify write it, so output matches the codec's in Node.
                attributes.put(name, ISO_MILLIS.format(Instant.ofEpochMilli((long) millis)));
            }
        } else if (value instanceof Map<?, ?> nested) {
            flatten(name + ".", nested, depth + 1, values, measurements, attributes);
        } else if (value != null && !(value instanceof org.mozilla.javascript.Undefined)) {
            attributes.put(name, value instanceof Boolean ? value : Context.toString(value));
        }
    }

    private static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
