package dev.iotpipeline.decoder.codec;

import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.Script;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns a codec's source into a Rhino script: size limit, sandbox check, ES5 rewrite and compilation. */
final class ScriptCompiler {

    // Logged under the codec's name, which is where existing logging configuration expects it.
    private static final Logger log = LoggerFactory.getLogger(JavaScriptCodec.class);

    /** A compiled script, and how: in the interpreter, and whether from the script rewritten to ES5. */
    record Compiled(Script script, boolean interpreted, boolean transpiled) {}

    private ScriptCompiler() {}

    /** Throws {@link InvalidScriptException}, never another exception, for a script the engine or sandbox refuses. */
    static Compiled compile(String name, String original, long sizeLimitBytes, boolean interpretedOnly) {
        requireSize(original, sizeLimitBytes);
        var sourceName = name + ".js";
        var source = original;
        boolean transpiled = false;
        try {
            ScriptChecker.check(source, sourceName);
        } catch (InvalidScriptException e) {
            if (!e.syntax()) {
                throw e;
            }
            // Syntax Rhino does not know (classes, for…of over const, spread arguments, const redeclared in a
            // sibling block): the same script rewritten to ES5 runs in the same sandbox. A real syntax error is
            // refused by Closure's parser, with its position in the original.
            var es5 = ModernSyntax.toEs5(original, sourceName);
            ScriptChecker.check(es5.userCode(), sourceName, original);
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
                log.info(
                        "JavaScript codec {} runs interpreted: Rhino's bytecode generator failed on it ({})",
                        name,
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
        return new Compiled(script, interpreted, transpiled);
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
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < source.length()
                    && Character.isLowSurrogate(source.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** A byte count as the limits' messages quote it: in MiB or KiB when it is a whole number of them. */
    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
