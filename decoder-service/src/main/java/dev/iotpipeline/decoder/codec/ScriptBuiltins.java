package dev.iotpipeline.decoder.codec;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.Callable;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Symbol;
import org.mozilla.javascript.SymbolKey;
import org.mozilla.javascript.Undefined;
import org.mozilla.javascript.regexp.NativeRegExp;

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

    /** Array methods that do constant work whatever the length; left unwrapped because codecs call them often. */
    private static final Set<String> CONSTANT_ARRAY_METHODS = Set.of("constructor", "push", "pop", "at");

    private static final String[] TYPED_ARRAYS = {"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array",
            "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array",
            "BigUint64Array"};

    private ScriptBuiltins() {
    }

    /**
     * A check of a built-in call's receiver and arguments: throws a script error to refuse the call, else returns
     * the work the call will do (elements, characters, bytes), which the wrapper adds to the instruction count
     * once the call is done, so that a heavy call is followed by a limit check at once instead of up to
     * {@link ScriptSandbox#CHECK_INTERVAL} script instructions later.
     */
    @FunctionalInterface
    private interface Check {
        long accept(Context cx, Scriptable scope, Scriptable thisObj, Object[] args);
    }

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
        var arrayPrototype = (ScriptableObject) ScriptableObject.getClassPrototype(scope, "Array");
        // An iterator made while its array was short walks whatever length the array has later, and spread,
        // Array.from or new Set drive it from Java: each next() counts as an instruction, so the walk is checked.
        var values = (Function) arrayPrototype.get("values", arrayPrototype);
        var iterator = (Scriptable) values.call(cx, scope, cx.newArray(scope, 0), new Object[0]);
        wrap(scope, (ScriptableObject) iterator.getPrototype(), "next", (c, s, t, a) -> 1);
        hardenArrayMethods(scope, arrayPrototype);
        var arrayConstructor = (ScriptableObject) ScriptableObject.getProperty(scope, "Array");
        // Rhino's array generics (Array.join(array, ...)) take the array as their first argument.
        for (var id : arrayConstructor.getAllIds()) {
            if (id instanceof String name && !"from".equals(name) && !"of".equals(name)
                    && !"isArray".equals(name) && arrayConstructor.get(name, arrayConstructor) instanceof Function) {
                wrap(scope, arrayConstructor, name, (c, s, t, a) -> requireLength(argument(a, 0), "Array." + name));
            }
        }
        wrap(scope, arrayConstructor, "from", (c, s, t, a) -> requireLength(argument(a, 0), "Array.from"));
        hardenStringMethods(scope, (ScriptableObject) ScriptableObject.getClassPrototype(scope, "String"));
        var stringConstructor = (ScriptableObject) ScriptableObject.getProperty(scope, "String");
        wrap(scope, stringConstructor, "raw", (c, s, t, a) -> argument(a, 0) instanceof Scriptable template
                ? requireLength(ScriptableObject.getProperty(template, "raw"), "String.raw") : 0);
        var functionPrototype = (ScriptableObject) ScriptableObject.getFunctionPrototype(scope);
        wrap(scope, functionPrototype, "apply", (c, s, t, a) -> requireLength(argument(a, 1), "apply"));
        var reflect = (ScriptableObject) ScriptableObject.getProperty(scope, "Reflect");
        wrap(scope, reflect, "apply", (c, s, t, a) -> requireLength(argument(a, 2), "Reflect.apply"));
        wrap(scope, reflect, "construct", (c, s, t, a) -> requireLength(argument(a, 1), "Reflect.construct"));
        hardenJson(scope);
        hardenBuffers(scope);
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
        var guarded = new GuardedConstructor(scope, "Function", function, (c, s, t, a) -> {
            var parameters = new StringBuilder();
            for (int i = 0; i < a.length - 1; i++) {
                parameters.append(i > 0 ? "," : "").append(a[i]);
            }
            checkSource("(function (" + parameters + "\n) {\n" + (a.length > 0 ? a[a.length - 1] : "") + "\n})");
            return 0;
        }, ScriptBuiltins::strings);
        scope.defineProperty("Function", guarded, ScriptableObject.DONTENUM);
        ((ScriptableObject) ScriptableObject.getFunctionPrototype(scope)).defineProperty("constructor", guarded,
                ScriptableObject.DONTENUM);
    }

    private static void checkSource(String source) {
        if (source.length() > JavaScriptCodec.DEFAULT_SIZE_LIMIT) {
            throw ScriptRuntime.rangeError("code of " + source.length() + " characters is over the codec limit of "
                    + JavaScriptCodec.DEFAULT_SIZE_LIMIT);
        }
        try {
            ScriptSandbox.check(source, "eval");
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

    private static void hardenArrayMethods(ScriptableObject scope, ScriptableObject arrayPrototype) {
        Check length = (c, s, t, a) -> requireLength(t, "Array.prototype method");
        for (var id : arrayPrototype.getAllIds()) {
            if (id instanceof String name && !CONSTANT_ARRAY_METHODS.contains(name)
                    && arrayPrototype.get(name, arrayPrototype) instanceof Function) {
                switch (name) {
                    case "concat" -> wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                        long total = requireLength(t, "concat");
                        for (var argument : a) {
                            total += argument instanceof Scriptable array && isArray(array)
                                    ? requireLength(array, "concat") : 1;
                        }
                        require(total, MAX_LENGTH, "concat result length");
                        return total;
                    });
                    case "join", "toString", "toLocaleString" -> wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                        long elements = requireLength(t, name);
                        long separator = "join".equals(name) && a.length > 0 && !Undefined.isUndefined(a[0])
                                ? ScriptRuntime.toString(a[0]).length() : 1;
                        require(Math.max(0, elements - 1) * separator, MAX_STRING_LENGTH, name + " result length");
                        return elements + Math.max(0, elements - 1) * separator;
                    });
                    case "sort", "toSorted" -> wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                        long elements = requireLength(t, name);
                        // With a comparator every comparison is script code, counted like any other.
                        if (a.length == 0 || Undefined.isUndefined(a[0])) {
                            require(elements, MAX_SORT_LENGTH, name + " without a comparator on a length");
                        }
                        return elements;
                    });
                    case "flat" -> wrap(scope, arrayPrototype, name, (c, s, t, a) -> requireFlattenable(t,
                            a.length > 0 && !Undefined.isUndefined(a[0]) ? ScriptRuntime.toNumber(a[0]) : 1));
                    default -> wrap(scope, arrayPrototype, name, length);
                }
            }
        }
        // The iterator (values and Symbol.iterator are one function) feeds spread, for-of, Array.from and new
        // Map/Set from Java loops.
        var values = arrayPrototype.get("values", arrayPrototype);
        arrayPrototype.defineProperty(SymbolKey.ITERATOR, values, ScriptableObject.DONTENUM);
        // flatMap flattens whatever its callback returns, unseen before it runs: map, then the bounded flat.
        var map = (Function) arrayPrototype.get("map", arrayPrototype);
        var flat = (Function) arrayPrototype.get("flat", arrayPrototype);
        define(scope, arrayPrototype, "flatMap", new Composite("flatMap", 1, (cx, s, thisObj, args) -> {
            var mapped = map.call(cx, s, thisObj, args);
            return flat.call(cx, s, ScriptRuntime.toObject(cx, s, mapped), new Object[] {1});
        }));
    }

    private static void hardenStringMethods(ScriptableObject scope, ScriptableObject stringPrototype) {
        wrap(scope, stringPrototype, "repeat", (c, s, t, a) -> {
            double count = a.length > 0 ? ScriptRuntime.toNumber(a[0]) : 0;
            if (!Double.isFinite(count) || count <= 0) {
                return 0;
            }
            double length = ScriptRuntime.toString(t).length() * count;
            require(length, MAX_STRING_LENGTH, "repeat result length");
            return (long) length;
        });
        // Collation compares about 5 million characters a second: bounded like a search of both strings.
        wrap(scope, stringPrototype, "localeCompare", (c, s, t, a) -> require(ScriptRuntime.toString(t).length()
                + (a.length > 0 ? ScriptRuntime.toString(a[0]).length() : 0), MAX_LENGTH, "localeCompare length"));
        wrap(scope, stringPrototype, "normalize", (c, s, t, a) -> ScriptRuntime.toString(t).length());
        for (var name : new String[] {"padStart", "padEnd"}) {
            wrap(scope, stringPrototype, name, (c, s, t, a) -> {
                double length = a.length > 0 ? ScriptRuntime.toNumber(a[0]) : 0;
                require(length, MAX_STRING_LENGTH, name + " length");
                return length > 0 ? (long) length : 0;
            });
        }
        // Plain-string search is Java's String.indexOf, which compares up to text × pattern characters. A
        // pattern object with a method of its own (a RegExp, counted by Rhino) is left alone; any other object
        // is converted once here, so a toString cannot answer the check one way and the search another.
        var searches = new Object[][] {{"indexOf", null}, {"lastIndexOf", null}, {"includes", null},
                {"split", SymbolKey.SPLIT}, {"replace", SymbolKey.REPLACE}, {"replaceAll", SymbolKey.REPLACE}};
        for (var search : searches) {
            var name = (String) search[0];
            var protocol = (Symbol) search[1];
            var original = (Function) stringPrototype.get(name, stringPrototype);
            define(scope, stringPrototype, name, new Composite(name, 1, (cx, s, thisObj, args) -> {
                var text = ScriptRuntime.toString(thisObj);
                var pattern = args.length > 0 ? args[0] : Undefined.instance;
                if (pattern instanceof NativeRegExp || (protocol != null && pattern instanceof Scriptable object
                        && ScriptableObject.getProperty(object, protocol) instanceof Callable)) {
                    return original.call(cx, s, ScriptRuntime.toObject(cx, s, text), args);
                }
                var patternText = ScriptRuntime.toString(pattern);
                double work = (double) text.length() * Math.max(1, patternText.length());
                require(work, MAX_SEARCH_WORK, name + " work (text length × pattern length)");
                var checked = args.clone();
                if (checked.length > 0) {
                    checked[0] = patternText;
                }
                var result = original.call(cx, s, ScriptRuntime.toObject(cx, s, text), checked);
                count(cx, text.length());
                return result;
            }));
        }
    }

    private static void hardenJson(ScriptableObject scope) {
        var json = (ScriptableObject) ScriptableObject.getProperty(scope, "JSON");
        var stringify = (Function) json.get("stringify", json);
        // JSON.stringify walks arrays by index in Java; a replacer function runs once per value it visits, so
        // one that counts instructions makes the walk as interruptible as a script loop.
        define(scope, json, "stringify", new Composite("stringify", 3, (cx, s, thisObj, args) -> {
            var checked = args.length >= 2 ? args.clone() : java.util.Arrays.copyOf(args, 2);
            if (checked[1] instanceof Scriptable list && isArray(list) && !(checked[1] instanceof Callable)) {
                checked[1] = new CountingReplacer(null, allowList(list));
            } else {
                checked[1] = new CountingReplacer(checked[1] instanceof Callable user ? user : null, null);
            }
            return stringify.call(cx, s, thisObj, checked);
        }));
    }

    private static void hardenBuffers(ScriptableObject scope) {
        var arrayBuffer = (Function) ScriptableObject.getProperty(scope, "ArrayBuffer");
        guardConstructor(scope, "ArrayBuffer", arrayBuffer, (c, s, t, a) ->
                require(a.length > 0 ? ScriptRuntime.toNumber(a[0]) : 0, MAX_BUFFER_BYTES, "ArrayBuffer length"));
        var bufferPrototype = (ScriptableObject) ScriptableObject.getProperty(arrayBuffer, "prototype");
        for (var name : new String[] {"transfer", "transferToFixedLength"}) {
            if (bufferPrototype.get(name, bufferPrototype) instanceof Function) {
                wrap(scope, bufferPrototype, name, (c, s, t, a) -> a.length > 0 && !Undefined.isUndefined(a[0])
                        ? require(ScriptRuntime.toNumber(a[0]), MAX_BUFFER_BYTES, name + " length") : 0);
            }
        }
        for (var name : TYPED_ARRAYS) {
            if (!(ScriptableObject.getProperty(scope, name) instanceof Function constructor)) {
                continue;
            }
            double bytesPerElement = ScriptRuntime.toNumber(ScriptableObject.getProperty(constructor,
                    "BYTES_PER_ELEMENT"));
            guardConstructor(scope, name, constructor, (c, s, t, a) -> {
                var first = a.length > 0 ? a[0] : Undefined.instance;
                if (first instanceof Scriptable source) {
                    if ("ArrayBuffer".equals(source.getClassName())) {
                        return 0;
                    }
                    // An array-like or another typed array is copied: as many elements as its length.
                    var length = ScriptableObject.getProperty(source, "length");
                    return length == Scriptable.NOT_FOUND || Undefined.isUndefined(length) ? 0
                            : require(ScriptRuntime.toNumber(length) * bytesPerElement, MAX_BUFFER_BYTES, name + " size");
                }
                return Undefined.isUndefined(first) ? 0
                        : require(ScriptRuntime.toNumber(first) * bytesPerElement, MAX_BUFFER_BYTES, name + " size");
            });
        }
    }

    /** Replaces a global constructor and its prototype's {@code constructor} link by a guarded one. */
    private static void guardConstructor(ScriptableObject scope, String name, Function original, Check check) {
        var guarded = new GuardedConstructor(scope, name, original, check, args -> args);
        scope.defineProperty(name, guarded, ScriptableObject.DONTENUM);
        var prototype = ScriptableObject.getProperty(original, "prototype");
        if (prototype instanceof ScriptableObject object) {
            object.defineProperty("constructor", guarded, ScriptableObject.DONTENUM);
        }
    }

    private static void wrap(ScriptableObject scope, ScriptableObject holder, String name, Check check) {
        var original = holder.get(name, holder);
        if (original instanceof Function function) {
            define(scope, holder, name, new Guarded(name, function, check));
        }
    }

    private static void define(ScriptableObject scope, ScriptableObject holder, String name, BaseFunction function) {
        function.setParentScope(scope);
        function.setPrototype(ScriptableObject.getFunctionPrototype(scope));
        holder.defineProperty(name, function, ScriptableObject.DONTENUM);
    }

    private static Object argument(Object[] args, int index) {
        return args.length > index ? args[index] : Undefined.instance;
    }

    /** The length of an array-like, refused above {@link #MAX_LENGTH}; 0 for anything that is not an object. */
    private static long requireLength(Object value, String what) {
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

    /** Walks what {@code flat(depth)} would flatten, refusing more than {@link #MAX_LENGTH} elements in all. */
    private static long requireFlattenable(Scriptable array, double depth) {
        var seen = new IdentityHashMap<Scriptable, Boolean>();
        long[] total = {0};
        flattenable(array, Double.isNaN(depth) ? 0 : depth, seen, total);
        return total[0];
    }

    private static void flattenable(Scriptable array, double depth, IdentityHashMap<Scriptable, Boolean> seen,
            long[] total) {
        total[0] += requireLength(array, "flat");
        require(total[0], MAX_LENGTH, "flat result length");
        if (depth < 1 || seen.put(array, Boolean.TRUE) != null) {
            return;
        }
        for (var id : array.getIds()) {
            var element = id instanceof Integer index ? array.get(index, array) : null;
            if (element instanceof Scriptable nested && isArray(nested)) {
                flattenable(nested, depth - 1, seen, total);
            }
        }
    }

    /** Returns the value, as work done, when it is within the limit. */
    private static long require(double value, long max, String what) {
        if (value > max) {
            throw ScriptRuntime.rangeError(what + " " + (long) value + " is over the codec limit of " + max);
        }
        return value > 0 ? (long) value : 0;
    }

    /** Adds a built-in's work to the instruction count; the sandbox checks its limits when it passes the interval. */
    private static void count(Context cx, long work) {
        if (work > 0) {
            ScriptRuntime.addInstructionCount(cx, (int) Math.min(work, Integer.MAX_VALUE / 2));
        }
    }

    private static boolean isArray(Scriptable object) {
        return object instanceof NativeArray || "Array".equals(object.getClassName());
    }

    private static Set<String> allowList(Scriptable list) {
        var names = new HashSet<String>();
        long length = requireLength(list, "JSON.stringify property list");
        for (int i = 0; i < length; i++) {
            var item = list.get(i, list);
            if (item instanceof CharSequence || item instanceof Number || item instanceof Scriptable) {
                names.add(ScriptRuntime.toString(item));
            }
        }
        return names;
    }

    /** A built-in that checks its receiver and arguments, then runs the original. */
    private static final class Guarded extends BaseFunction {
        private final String name;
        private final Function original;
        private final Check check;

        Guarded(String name, Function original, Check check) {
            this.name = name;
            this.original = original;
            this.check = check;
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            long work = check.accept(cx, scope, thisObj, args);
            var result = original.call(cx, scope, thisObj, args);
            count(cx, work);
            return result;
        }

        @Override
        public Scriptable construct(Context cx, Scriptable scope, Object[] args) {
            throw ScriptRuntime.typeError(name + " is not a constructor");
        }

        @Override
        public String getFunctionName() {
            return name;
        }

        @Override
        public int getLength() {
            return original instanceof BaseFunction base ? base.getLength() : 0;
        }

        @Override
        public int getArity() {
            return getLength();
        }
    }

    /** A constructor that checks its arguments, then constructs with the original. */
    private static final class GuardedConstructor extends BaseFunction {
        private final String name;
        private final Function original;
        private final Check check;
        private final java.util.function.UnaryOperator<Object[]> prepare;

        GuardedConstructor(Scriptable scope, String name, Function original, Check check,
                java.util.function.UnaryOperator<Object[]> prepare) {
            this.name = name;
            this.original = original;
            this.check = check;
            this.prepare = prepare;
            setParentScope(scope);
            // Static members (BYTES_PER_ELEMENT, from, of, isView) are found on the original through the
            // prototype chain; instanceof and new use the original's prototype object.
            setPrototype(original);
            setImmunePrototypeProperty(ScriptableObject.getProperty(original, "prototype"));
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            var prepared = prepare.apply(args);
            long work = check.accept(cx, scope, thisObj, prepared);
            var result = original.call(cx, scope, thisObj, prepared);
            count(cx, work);
            return result;
        }

        @Override
        public Scriptable construct(Context cx, Scriptable scope, Object[] args) {
            var prepared = prepare.apply(args);
            long work = check.accept(cx, scope, null, prepared);
            var result = original.construct(cx, scope, prepared);
            count(cx, work);
            return result;
        }

        @Override
        public String getFunctionName() {
            return name;
        }
    }

    /** A function built from Java, for built-ins that are more than a check in front of the original. */
    private static final class Composite extends BaseFunction {

        @FunctionalInterface
        interface Body {
            Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args);
        }

        private final String name;
        private final int length;
        private final Body body;

        Composite(String name, int length, Body body) {
            this.name = name;
            this.length = length;
            this.body = body;
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            return body.call(cx, scope, thisObj, args);
        }

        @Override
        public Scriptable construct(Context cx, Scriptable scope, Object[] args) {
            throw ScriptRuntime.typeError(name + " is not a constructor");
        }

        @Override
        public String getFunctionName() {
            return name;
        }

        @Override
        public int getLength() {
            return length;
        }

        @Override
        public int getArity() {
            return length;
        }
    }

    /** The replacer JSON.stringify always gets: counts one instruction per value, then applies the script's. */
    private static final class CountingReplacer extends BaseFunction {
        private final Callable replacer;
        private final Set<String> allowed;

        CountingReplacer(Callable replacer, Set<String> allowed) {
            this.replacer = replacer;
            this.allowed = allowed;
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            ScriptRuntime.addInstructionCount(cx, 1);
            var key = argument(args, 0);
            var value = argument(args, 1);
            if (replacer != null) {
                return replacer.call(cx, scope, thisObj, args);
            }
            // A property list only filters object members, and never the root (key "").
            if (allowed != null && !(thisObj != null && isArray(thisObj)) && !"".equals(ScriptRuntime.toString(key))
                    && !allowed.contains(ScriptRuntime.toString(key))) {
                return Undefined.instance;
            }
            return value;
        }
    }
}
