package dev.iotpipeline.decoder.codec;

import java.util.function.UnaryOperator;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;

/** The functions {@link ScriptBuiltins} puts in place of a scope's built-ins, and how it installs them. */
final class BuiltinWrappers {

    private BuiltinWrappers() {}

    /**
     * A check of a built-in call's receiver and arguments: throws a script error to refuse the call, else returns
     * the work the call will do (elements, characters, bytes), which the wrapper adds to the instruction count
     * once the call is done, so that a heavy call is followed by a limit check at once instead of up to
     * {@link ScriptSandbox#CHECK_INTERVAL} script instructions later.
     */
    @FunctionalInterface
    interface Check {
        long accept(Context cx, Scriptable scope, Scriptable thisObj, Object[] args);
    }

    /** Replaces a global constructor and its prototype's {@code constructor} link by a guarded one. */
    static void guardConstructor(ScriptableObject scope, String name, Function original, Check check) {
        var guarded = new GuardedConstructor(scope, name, original, check, args -> args);
        scope.defineProperty(name, guarded, ScriptableObject.DONTENUM);
        var prototype = ScriptableObject.getProperty(original, "prototype");
        if (prototype instanceof ScriptableObject object) {
            object.defineProperty("constructor", guarded, ScriptableObject.DONTENUM);
        }
    }

    static void wrap(ScriptableObject scope, ScriptableObject holder, String name, Check check) {
        var original = holder.get(name, holder);
        if (original instanceof Function function) {
            define(scope, holder, name, new Guarded(name, function, check));
        }
    }

    static void define(ScriptableObject scope, ScriptableObject holder, String name, BaseFunction function) {
        function.setParentScope(scope);
        function.setPrototype(ScriptableObject.getFunctionPrototype(scope));
        holder.defineProperty(name, function, ScriptableObject.DONTENUM);
    }

    /** Adds a built-in's work to the instruction count; the sandbox checks its limits when it passes the interval. */
    static void count(Context cx, long work) {
        if (work > 0) {
            ScriptRuntime.addInstructionCount(cx, (int) Math.min(work, Integer.MAX_VALUE / 2));
        }
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
    static final class GuardedConstructor extends BaseFunction {
        private final String name;
        private final Function original;
        private final Check check;
        private final UnaryOperator<Object[]> prepare;

        GuardedConstructor(
                Scriptable scope, String name, Function original, Check check, UnaryOperator<Object[]> prepare) {
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
    static final class Composite extends BaseFunction {

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
}
