package dev.iotpipeline.decoder.codec;

import static dev.iotpipeline.decoder.codec.BuiltinWrappers.define;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.argument;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.isArray;
import static dev.iotpipeline.decoder.codec.ScriptBuiltins.requireLength;

import dev.iotpipeline.decoder.codec.BuiltinWrappers.Composite;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.Callable;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/** The bounded {@code JSON.stringify}, whose walk of a value counts as script instructions. */
final class JsonBuiltins {

    private JsonBuiltins() {}

    static void harden(ScriptableObject scope) {
        var json = (ScriptableObject) ScriptableObject.getProperty(scope, "JSON");
        var stringify = (Function) json.get("stringify", json);
        // JSON.stringify walks arrays by index in Java; a replacer function runs once per value it visits, so
        // one that counts instructions makes the walk as interruptible as a script loop.
        define(scope, json, "stringify", new Composite("stringify", 3, (cx, s, thisObj, args) -> {
            var checked = args.length >= 2 ? args.clone() : Arrays.copyOf(args, 2);
            if (checked[1] instanceof Scriptable list && isArray(list) && !(checked[1] instanceof Callable)) {
                checked[1] = new CountingReplacer(null, allowList(list));
            } else {
                checked[1] = new CountingReplacer(checked[1] instanceof Callable user ? user : null, null);
            }
            return stringify.call(cx, s, thisObj, checked);
        }));
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
            if (allowed != null
                    && !(thisObj != null && isArray(thisObj))
                    && !"".equals(ScriptRuntime.toString(key))
                    && !allowed.contains(ScriptRuntime.toString(key))) {
                return Undefined.instance;
            }
            return value;
        }
    }
}
