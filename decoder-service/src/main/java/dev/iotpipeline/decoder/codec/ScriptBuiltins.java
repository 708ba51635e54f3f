package dev.iotpipeline.decoder.codec;

import static dev.iotpipeline.decoder.codec.BuiltinWrappers.define;
import static dev.iotpipeline.decoder.codec.BuiltinWrappers.wrap;

import dev.iotpipeline.decoder.codec.BuiltinWrappers.Composite;
import dev.iotpipeline.decoder.codec.BuiltinWrappers.GuardedConstructor;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/**
 * Bounds the built-in functions whose work the instruction count cannot see, because it happens in one Java
 * loop between two checks.
 */
final class ScriptBuiltins {

    /**
     * Elements an array, array-like or argument list may have for a built-in to walk it (a codec's payload is at
     * most 242 bytes). At this length the slowest built-ins (fill or Array.from on a sparse array, new Set) take
     * about 0.1 s on one core, so one call overshoots the time limit by about that much before the next check.
     */
    static final long MAX_LENGTH = 1 << 18;

    /** Elements sort may order without a comparator: it compares their strings in Java, about 20 times slower. */
    static final long MAX_SORT_LENGTH = 1 << 16;

    /** Characters a built-in may make a string ({@code repeat}, {@code padStart}, {@code padEnd}) or join long. */
    static final long MAX_STRING_LENGTH = 1 << 22;

    /** Bytes an {@code ArrayBuffer} or typed array may be created with. */
    static final long MAX_BUFFER_BYTES = 1 << 24;

    /** Character comparisons a plain-string search may need at worst (text length × pattern length). */
    static final long MAX_SEARCH_WORK = 1L << 28;

    private ScriptBuiltins() {}

    /**
     * Replaces the unbounded built-ins of a fresh scope by bounded wrappers.
     *
     * <p>Why: Rhino checks a script's limits between script instructions, and one built-in call is one
     * instruction. {@code new Array(1e9).join()} or {@code fill} on a sparse array walk every index of the
     * length, not the elements, in Java: minutes of CPU no check interrupts, and no exception at all;
     * {@code 'x'.repeat(1 << 29)} allocates a gigabyte in one call. Each wrapper refuses, with a {@code RangeError}
     * the script may catch, a size no codec needs, then runs the original. The originals stay out of reach: the
     * wrappers replace them where scripts find them (prototypes, and constructors' {@code prototype.constructor}).
     */
    static void harden(Context cx, ScriptableObject scope) {
        ArrayBuiltins.harden(cx, scope);
        StringBuiltins.harden(scope);
        var functionPrototype = (ScriptableObject) ScriptableObject.getFunctionPrototype(scope);
        wrap(scope, functionPrototype, "apply", (c, s, t, a) -> requireLength(argument(a, 1), "apply"));
        var reflect = (ScriptableObject) ScriptableObject.getProperty(scope, "Reflect");
        wrap(scope, reflect, "apply", (c, s, t, a) -> requireLength(argument(a, 2), "Reflect.apply"));
        wrap(scope, reflect, "construct", (c, s, t, a) -> requireLength(argument(a, 1), "Reflect.construct"));
        JsonBuiltins.harden(scope);
        BufferBuiltins.harden(scope);
        hardenCodeCompilation(scope);
        // BigInt arithmetic is a Java BigInteger operation per operator, unbounded in time and size (x = x * x
        // doubles the size at every step, minutes of CPU between two checks), so BigInts are not available at
        // all: the check refuses their literals, and nothing here makes one.
        for (var name : new String[] {"BigInt", "BigInt64Array", "BigUint64Array"}) {
            scope.delete(name);
        }
    }

    /**
     * Code compiled at run time (eval, new Function) passes the same check as a codec's own script, so it cannot
     * name the host or write a BigInt literal either, and is as large as a script at most. Rhino's own Script
     * constructor is removed: no codec needs it.
     */
    private static void hardenCodeCompilation(ScriptableObject scope) {
        scope.delete("Script");
        var eval = (Function) scope.get("eval", scope);
        // Called through this wrapper, eval is an indirect eval: it sees the global scope, not the caller's.
        define(scope, scope, "eval", new Composite("eval", 1, (cx, s, thisObj, args) -> {
            if (argument(args, 0) instanceof CharSequence source) {
                checkSource(source.toString());
            }
            return eval.call(cx, s, thisObj, args);
        }));
        var function = (Function) scope.get("Function", scope);
        var guarded = new GuardedConstructor(
                scope,
                "Function",
                function,
                (c, s, t, a) -> {
                    var parameters = new StringBuilder();
                    for (int i = 0; i < a.length - 1; i++) {
                        parameters.append(i > 0 ? "," : "").append(a[i]);
                    }
                    checkSource(
                            "(function (" + parameters + "\n) {\n" + (a.length > 0 ? a[a.length - 1] : "") + "\n})");
                    return 0;
                },
                ScriptBuiltins::strings);
        scope.defineProperty("Function", guarded, ScriptableObject.DONTENUM);
        ((ScriptableObject) ScriptableObject.getFunctionPrototype(scope))
                .defineProperty("constructor", guarded, ScriptableObject.DONTENUM);
    }

    private static void checkSource(String source) {
        if (source.length() > JavaScriptCodec.DEFAULT_SIZE_LIMIT) {
            throw ScriptRuntime.rangeError("code of " + source.length() + " characters is over the codec limit of "
                    + JavaScriptCodec.DEFAULT_SIZE_LIMIT);
        }
        try {
            ScriptChecker.check(source, "eval");
        } catch (InvalidScriptException e) {
            throw ScriptRuntime.constructError("SyntaxError", e.getMessage());
        }
    }

    /** Arguments converted to strings once, so that a toString cannot answer the check one way and the engine another. */
    private static Object[] strings(Object[] args) {
        var strings = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            strings[i] = ScriptRuntime.toString(args[i]);
        }
        return strings;
    }

    static Object argument(Object[] args, int index) {
        return args.length > index ? args[index] : Undefined.instance;
    }

    /** The length of an array-like, refused above {@link #MAX_LENGTH}; 0 for anything that is not an object. */
    static long requireLength(Object value, String what) {
        if (value instanceof NativeArray array) {
            // The common case, without a property lookup: this runs in front of every slice and indexOf.
            return require(array.getLength(), MAX_LENGTH, what + " on a length");
        }
        if (!(value instanceof Scriptable object)) {
            return 0;
        }
        var length = ScriptableObject.getProperty(object, "length");
        if (length == Scriptable.NOT_FOUND || Undefined.isUndefined(length)) {
            return 0;
        }
        double number = ScriptRuntime.toNumber(length);
        require(number, MAX_LENGTH, what + " on a length");
        return number > 0 ? (long) number : 0;
    }

    /** Returns the value, as work done, when it is within the limit. */
    static long require(double value, long max, String what) {
        if (value > max) {
            throw ScriptRuntime.rangeError(what + " " + (long) value + " is over the codec limit of " + max);
        }
        return value > 0 ? (long) value : 0;
    }

    static boolean isArray(Scriptable object) {
        return object instanceof NativeArray || "Array".equals(object.getClassName());
    }
}
