package dev.iotpipeline.decoder.codec;

import static dev.iotpipeline.decoder.codec.BuiltinWrappers.define;
import static dev.iotpipeline.decoder.codec.BuiltinWrappers.wrap;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_LENGTH;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_SORT_LENGTH;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_STRING_LENGTH;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.argument;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.isArray;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.require;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.requireLength;

import dev.iotpipeline.decoder.codec.BuiltinWrappers.Check;
import dev.iotpipeline.decoder.codec.BuiltinWrappers.Composite;
import java.util.IdentityHashMap;
import java.util.Set;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.SymbolKey;
import org.mozilla.javascript.Undefined;

/** The bounded array built-ins: the methods of {@code Array.prototype}, its iterator and Rhino's array generics. */
final class ArrayBuiltins {

    /** Array methods that do constant work whatever the length; left unwrapped because codecs call them often. */
    private static final Set<String> CONSTANT_ARRAY_METHODS = Set.of("constructor", "push", "pop", "at");

    private ArrayBuiltins() {}

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
            if (id instanceof String name
                    && !"from".equals(name)
                    && !"of".equals(name)
                    && !"isArray".equals(name)
                    && arrayConstructor.get(name, arrayConstructor) instanceof Function) {
                wrap(scope, arrayConstructor, name, (c, s, t, a) -> requireLength(argument(a, 0), "Array." + name));
            }
        }
        wrap(scope, arrayConstructor, "from", (c, s, t, a) -> requireLength(argument(a, 0), "Array.from"));
    }

    private static void hardenArrayMethods(ScriptableObject scope, ScriptableObject arrayPrototype) {
        Check length = (c, s, t, a) -> requireLength(t, "Array.prototype method");
        for (var id : arrayPrototype.getAllIds()) {
            if (id instanceof String name
                    && !CONSTANT_ARRAY_METHODS.contains(name)
                    && arrayPrototype.get(name, arrayPrototype) instanceof Function) {
                switch (name) {
                    case "concat" ->
                        wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                            long total = requireLength(t, "concat");
                            for (var argument : a) {
                                total += argument instanceof Scriptable array && isArray(array)
                                        ? requireLength(array, "concat")
                                        : 1;
                            }
                            require(total, MAX_LENGTH, "concat result length");
                            return total;
                        });
                    case "join", "toString", "toLocaleString" ->
                        wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                            long elements = requireLength(t, name);
                            long separator = "join".equals(name) && a.length > 0 && !Undefined.isUndefined(a[0])
                                    ? ScriptRuntime.toString(a[0]).length()
                                    : 1;
                            require(Math.max(0, elements - 1) * separator, MAX_STRING_LENGTH, name + " result length");
                            return elements + Math.max(0, elements - 1) * separator;
                        });
                    case "sort", "toSorted" ->
                        wrap(scope, arrayPrototype, name, (c, s, t, a) -> {
                            long elements = requireLength(t, name);
                            // With a comparator every comparison is script code, counted like any other.
                            if (a.length == 0 || Undefined.isUndefined(a[0])) {
                                require(elements, MAX_SORT_LENGTH, name + " without a comparator on a length");
                            }
                            return elements;
                        });
                    case "flat" ->
                        wrap(
                                scope,
                                arrayPrototype,
                                name,
                                (c, s, t, a) -> requireFlattenable(
                                        t,
                                        a.length > 0 && !Undefined.isUndefined(a[0])
                                                ? ScriptRuntime.toNumber(a[0])
                                                : 1));
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

    /**
     * Walks what {@code flat(depth)} would flatten, refusing more than {@link ScriptBuiltins#MAX_LENGTH} elements
     * in all.
     */
    private static long requireFlattenable(Scriptable array, double depth) {
        var seen = new IdentityHashMap<Scriptable, Boolean>();
        long[] total = {0};
        flattenable(array, Double.isNaN(depth) ? 0 : depth, seen, total);
        return total[0];
    }

    private static void flattenable(
            Scriptable array, double depth, IdentityHashMap<Scriptable, Boolean> seen, long[] total) {
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
}
