package dev.iotpipeline.decoder.codec;

import static dev.iotpipeline.decoder.codec.BuiltinWrappers.count;
import static dev.iotpipeline.decoder.codec.BuiltinWrappers.define;
import static dev.iotpipeline.decoder.codec.BuiltinWrappers.wrap;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_LENGTH;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_SEARCH_WORK;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.MAX_STRING_LENGTH;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.argument;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.require;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.requireLength;

import dev.iotpipeline.decoder.codec.BuiltinWrappers.Composite;
import org.mozilla.javascript.Callable;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Symbol;
import org.mozilla.javascript.SymbolKey;
import org.mozilla.javascript.Undefined;
import org.mozilla.javascript.regexp.NativeRegExp;

/** The bounded string built-ins: the {@code String.prototype} methods that build, compare or search strings. */
final class StringBuiltins {

    private StringBuiltins() {}

    static void harden(ScriptableObject scope) {
        hardenStringMethods(scope, (ScriptableObject) ScriptableObject.getClassPrototype(scope, "String"));
        var stringConstructor = (ScriptableObject) ScriptableObject.getProperty(scope, "String");
        wrap(
                scope,
                stringConstructor,
                "raw",
                (c, s, t, a) -> argument(a, 0) instanceof Scriptable template
                        ? requireLength(ScriptableObject.getProperty(template, "raw"), "String.raw")
                        : 0);
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
        wrap(
                scope,
                stringPrototype,
                "localeCompare",
                (c, s, t, a) -> require(
                        ScriptRuntime.toString(t).length()
                                + (a.length > 0 ? ScriptRuntime.toString(a[0]).length() : 0),
                        MAX_LENGTH,
                        "localeCompare length"));
        wrap(
                scope,
                stringPrototype,
                "normalize",
                (c, s, t, a) -> ScriptRuntime.toString(t).length());
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
        var searches = new Object[][] {
            {"indexOf", null},
            {"lastIndexOf", null},
            {"includes", null},
            {"split", SymbolKey.SPLIT},
            {"replace", SymbolKey.REPLACE},
            {"replaceAll", SymbolKey.REPLACE}
        };
        for (var search : searches) {
            var name = (String) search[0];
            var protocol = (Symbol) search[1];
            var original = (Function) stringPrototype.get(name, stringPrototype);
            define(scope, stringPrototype, name, new Composite(name, 1, (cx, s, thisObj, args) -> {
                var text = ScriptRuntime.toString(thisObj);
                var pattern = args.length > 0 ? args[0] : Undefined.instance;
                if (pattern instanceof NativeRegExp
                        || (protocol != null
                                && pattern instanceof Scriptable object
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
}
