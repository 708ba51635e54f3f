package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.decoder.codec.JavaScriptCodec.Form;
import dev.iotpipeline.decoder.codec.JavaScriptCodec.Trial;
import java.time.Duration;
import java.util.List;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;

/** Runs a compiled codec script under its limits: its top level once, then each call in its thread's scope. */
final class ScriptRunner {

    private static final String NORMALIZE = "normalizeUplink";

    private final String name;
    private final Script script;
    private final boolean interpreted;
    private final boolean transpiled;
    private final long timeLimitNanos;
    private final long compileTimeLimitNanos;
    private final long allocationLimitBytes;
    private final ScriptResults results;
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

    ScriptRunner(
            String name,
            ScriptCompiler.Compiled compiled,
            Duration timeLimit,
            Duration compileTimeLimit,
            long allocationLimitBytes) {
        this.name = name;
        this.script = compiled.script();
        this.interpreted = compiled.interpreted();
        this.transpiled = compiled.transpiled();
        this.timeLimitNanos = timeLimit.toNanos();
        this.compileTimeLimitNanos = compileTimeLimit.toNanos();
        this.allocationLimitBytes = allocationLimitBytes;
        this.results = new ScriptResults(name);
    }

    Form form() {
        return form;
    }

    boolean normalizes() {
        return normalizes;
    }

    boolean interpreted() {
        return interpreted;
    }

    /** Runs the top level once under its limits, and finds the form by the function it defines. */
    void runTopLevel() {
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
            normalizes =
                    found == Form.DECODE_UPLINK && ScriptableObject.getProperty(scope, NORMALIZE) instanceof Function;
        } catch (InvalidScriptException e) {
            throw e;
        } catch (RuntimeException
                | StackOverflowError
                | OutOfMemoryError
                | AssertionError
                | ScriptSandbox.Timeout
                | ScriptSandbox.OutOfBudget e) {
            if (e instanceof RhinoException rhino && cx.exceeded() == null) {
                throw InvalidScriptException.at(rhino.details(), rhino.lineNumber(), rhino.columnNumber());
            }
            throw new InvalidScriptException("the script's top level " + describe(cx, e, compileTimeLimitNanos)
                    + (cx.exceeded() instanceof ScriptSandbox.Timeout
                            ? " (decoder.codecs.script-compile-time-limit)"
                            : ""));
        } finally {
            Context.exit();
        }
    }

    Trial run(byte[] payload, Integer fPort) {
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
                        ScriptableObject.putProperty(input, "recvTime", cx.newObject(scope, "Date", new Object[] {
                            (double) System.currentTimeMillis()
                        }));
                        yield normalized(cx, scope, decodeFunction.call(cx, scope, scope, new Object[] {input}));
                    }
                    case CHIRPSTACK_V3 ->
                        new Trial(
                                results.fields(
                                        decodeFunction.call(
                                                cx, scope, scope, new Object[] {port, byteArray, cx.newObject(scope)}),
                                        List.of()),
                                null);
                    case TTN_V2 ->
                        new Trial(
                                results.fields(
                                        decodeFunction.call(cx, scope, scope, new Object[] {byteArray, port}),
                                        List.of()),
                                null);
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
        } catch (RuntimeException
                | StackOverflowError
                | OutOfMemoryError
                | AssertionError
                | ScriptSandbox.Timeout
                | ScriptSandbox.OutOfBudget e) {
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
                ? new CodecTimeoutException(message)
                : new CodecException(message);
    }

    /** What went wrong, as the rest of a sentence whose subject is the codec or its top level. */
    private String describe(ScriptSandbox.SandboxContext cx, Throwable e, long timeLimitNanos) {
        var limit = cx.exceeded() != null ? cx.exceeded() : e;
        long limitMillis = Duration.ofNanos(timeLimitNanos).toMillis();
        if (limit instanceof ScriptSandbox.Timeout timeout) {
            return switch (timeout.clock) {
                case CPU -> "exceeded its time limit of " + limitMillis + " ms of CPU time";
                case WALL ->
                    "exceeded its time limit of " + limitMillis + " ms (wall clock: this thread has no "
                            + "CPU-time counter)";
                case BACKSTOP ->
                    "exceeded its wall-clock backstop of "
                            + Duration.ofNanos(ScriptSandbox.backstop(timeLimitNanos))
                                    .toMillis() + " ms (time limit "
                            + limitMillis + " ms of CPU time)";
            };
        }
        if (limit instanceof ScriptSandbox.OutOfBudget) {
            return "allocated more than its budget of " + ScriptCompiler.size(allocationLimitBytes);
        }
        return switch (e) {
            case RhinoException rhino ->
                "failed: " + rhino.details() + " (line " + rhino.lineNumber()
                        + (transpiled ? " of the script as rewritten to ES5" : "") + ")";
            case StackOverflowError overflow -> "failed: too much recursion";
            case OutOfMemoryError memory ->
                "ran the JVM out of memory in one step (its budget is " + ScriptCompiler.size(allocationLimitBytes)
                        + " per call)";
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
     * The result of {@code decodeUplink}, and of {@code normalizeUplink} given its data when the script defines
     * one, each with its own warnings.
     */
    private Trial normalized(Context cx, Scriptable scope, Object returned) {
        var decoded = results.checked(returned);
        var data = ScriptableObject.getProperty(decoded, "data");
        // Flattened before normalizeUplink runs, which may change the object it is given.
        var output = results.fields(data, results.warnings(decoded));
        // Looked up only when the top level defined it: a missing name walks the scope chain on every call.
        if (normalizes && ScriptableObject.getProperty(scope, NORMALIZE) instanceof Function normalize) {
            var input = cx.newObject(scope);
            ScriptableObject.putProperty(input, "data", data);
            var normalizedResult = results.checked(normalize.call(cx, scope, scope, new Object[] {input}));
            return new Trial(
                    output,
                    results.fields(
                            ScriptableObject.getProperty(normalizedResult, "data"),
                            results.warnings(normalizedResult)));
        }
        return new Trial(output, null);
    }
}
