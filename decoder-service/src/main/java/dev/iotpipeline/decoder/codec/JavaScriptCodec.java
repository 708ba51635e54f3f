package dev.iotpipeline.decoder.codec;

import java.time.Duration;
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

/**
 * A codec in the TTN / ChirpStack form, {@code decodeUplink(input)} returning {@code {data, warnings,
 * errors}}, with {@code input.bytes}, {@code input.fPort} and {@code input.recvTime}. The script is
 * compiled once; each thread runs it in a scope of its own, created once and reused for every message.
 */
public final class JavaScriptCodec implements UplinkCodec {

    private final String name;
    private final Script script;
    private final long timeLimitNanos;
    private final long allocationLimitBytes;
    private final ThreadLocal<Scriptable> scopes = new ThreadLocal<>();

    private JavaScriptCodec(String name, Script script, Duration timeLimit, long allocationLimitBytes) {
        this.name = name;
        this.script = script;
        this.timeLimitNanos = timeLimit.toNanos();
        this.allocationLimitBytes = allocationLimitBytes;
    }

    public static JavaScriptCodec compile(String name, String source, Duration timeLimit) {
        return compile(name, source, timeLimit, DEFAULT_ALLOCATION_LIMIT);
    }

    /** Default allocation budget of one call. */
    public static final long DEFAULT_ALLOCATION_LIMIT = 32L << 20;

    /** Throws {@link InvalidScriptException} with the position of a syntax error or forbidden name. */
    public static JavaScriptCodec compile(String name, String source, Duration timeLimit, long allocationLimitBytes) {
        var sourceName = name + ".js";
        ScriptSandbox.check(source, sourceName);
        Script script;
        try (var cx = ScriptSandbox.INSTANCE.enterContext()) {
            script = cx.compileString(source, sourceName, 1, null);
        } catch (EvaluatorException e) {
            throw new InvalidScriptException(e.details(), e.lineNumber(), e.columnNumber());
        }
        var codec = new JavaScriptCodec(name, script, timeLimit, allocationLimitBytes);
        try (var cx = (ScriptSandbox.SandboxContext) ScriptSandbox.INSTANCE.enterContext()) {
            cx.limit(codec.timeLimitNanos, codec.allocationLimitBytes);
            if (!(ScriptableObject.getProperty(codec.scope(cx), "decodeUplink") instanceof Function)) {
                throw new InvalidScriptException("the script defines no function decodeUplink(input)", 1, 1);
            }
        } catch (ScriptSandbox.Timeout | ScriptSandbox.OutOfBudget e) {
            throw new InvalidScriptException("the script's top level did not finish within its limits", 1, 1);
        } catch (RhinoException e) {
            throw new InvalidScriptException(e.details(), e.lineNumber(), e.columnNumber());
        }
        return codec;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Decoded decode(byte[] payload, Integer fPort) {
        try (var cx = (ScriptSandbox.SandboxContext) ScriptSandbox.INSTANCE.enterContext()) {
            cx.limit(timeLimitNanos, allocationLimitBytes);
            var scope = scope(cx);
            var input = cx.newObject(scope);
            var bytes = new Object[payload.length];
            for (int i = 0; i < payload.length; i++) {
                bytes[i] = payload[i] & 0xFF;
            }
            ScriptableObject.putProperty(input, "bytes", cx.newArray(scope, bytes));
            ScriptableObject.putProperty(input, "fPort", fPort == null ? null : Integer.valueOf(fPort));
            ScriptableObject.putProperty(input, "recvTime", cx.newObject(scope, "Date",
                    new Object[] {(double) System.currentTimeMillis()}));
            var decodeUplink = (Function) ScriptableObject.getProperty(scope, "decodeUplink");
            return result(decodeUplink.call(cx, scope, scope, new Object[] {input}));
        } catch (ScriptSandbox.Timeout e) {
            throw new CodecTimeoutException("javascript codec " + name + " exceeded its time limit of "
                    + Duration.ofNanos(timeLimitNanos).toMillis() + " ms");
        } catch (ScriptSandbox.OutOfBudget e) {
            throw new CodecException("javascript codec " + name + " allocated more than its budget of "
                    + (allocationLimitBytes >> 20) + " MiB");
        } catch (RhinoException e) {
            throw new CodecException("javascript codec " + name + " failed: " + e.details() + " (line "
                    + e.lineNumber() + ")");
        } catch (StackOverflowError e) {
            throw new CodecException("javascript codec " + name + " failed: too much recursion");
        }
    }

    private Scriptable scope(Context cx) {
        var scope = scopes.get();
        if (scope == null) {
            scope = cx.initSafeStandardObjects();
            script.exec(cx, scope);
            scopes.set(scope);
        }
        return scope;
    }

    private Decoded result(Object returned) {
        if (!(returned instanceof Scriptable result)) {
            throw new CodecException("javascript codec " + name + " returned no object");
        }
        var errors = ScriptableObject.getProperty(result, "errors");
        if (errors instanceof NativeArray list && !list.isEmpty()) {
            throw new CodecException("javascript codec " + name + " reported errors: " + String.join("; ",
                    list.stream().map(String::valueOf).toList()));
        }
        var data = ScriptableObject.getProperty(result, "data");
        if (!(data instanceof Map<?, ?> fields)) {
            throw new CodecException("javascript codec " + name + " returned no data object");
        }
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        flatten("", fields, measurements, attributes);
        var warnings = ScriptableObject.getProperty(result, "warnings");
        if (warnings instanceof NativeArray list && !list.isEmpty()) {
            attributes.put("codecWarnings", list.stream().map(String::valueOf).toList());
        }
        return new Decoded(measurements, attributes);
    }

    /** Numbers, also nested ones (as {@code parent.child}), are measurements; everything else is an attribute. */
    private static void flatten(String prefix, Map<?, ?> fields, Map<String, Double> measurements,
            Map<String, Object> attributes) {
        fields.forEach((key, value) -> {
            var name = prefix + key;
            if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
                measurements.put(name, number.doubleValue());
            } else if (value instanceof NativeArray array) {
                attributes.put(name, List.copyOf(array.stream().map(v -> v instanceof Number n ? n.doubleValue()
                        : String.valueOf(v)).toList()));
            } else if (value instanceof Map<?, ?> nested) {
                flatten(name + ".", nested, measurements, attributes);
            } else if (value != null && !(value instanceof org.mozilla.javascript.Undefined)) {
                attributes.put(name, value instanceof Boolean ? value : Context.toString(value));
            }
        });
    }
}
