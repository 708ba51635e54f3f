package dev.iotpipeline.decoder.codec;

import com.google.javascript.jscomp.CompilationLevel;
import com.google.javascript.jscomp.Compiler;
import com.google.javascript.jscomp.CompilerOptions;
import com.google.javascript.jscomp.JSError;
import com.google.javascript.jscomp.Result;
import com.google.javascript.jscomp.SourceFile;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Rewrites JavaScript that Rhino does not run (classes, {@code for…of} over {@code const}, spread arguments, a
 * {@code const} of one name in sibling blocks, async syntax) into ES5 with Closure Compiler, for scripts Rhino's
 * parser refuses: the same script, in syntax the hardened engine runs.
 */
final class ModernSyntax {

    /**
     * Closure's runtime helpers that transpiled code calls, by the module that defines them; a helper not listed
     * here brings in Closure's whole ES2015 runtime (about 100 KB), which is correct, only larger.
     */
    private static final Map<String, String> HELPERS = Map.ofEntries(
            Map.entry("makeIterator", "es6/util/makeiterator"),
            Map.entry("arrayFromIterable", "es6/util/arrayfromiterable"),
            Map.entry("arrayFromIterator", "es6/util/arrayfromiterator"),
            Map.entry("getRestArguments", "es6/util/restarguments"),
            Map.entry("generator", "es6/generator_engine"),
            Map.entry("inherits", "es6/util/inherits"),
            Map.entry("global", "util/global"),
            Map.entry("createTemplateTagFirstArg", "es6/util/createtemplatetagfirstarg"),
            Map.entry("createTemplateTagFirstArgWithRaw", "es6/util/createtemplatetagfirstarg"),
            Map.entry("construct", "es6/util/construct"),
            Map.entry("objectCreate", "util/objectcreate"),
            Map.entry("owns", "util/owns"),
            Map.entry("assign", "es6/util/assign"),
            Map.entry("setPrototypeOf", "es6/util/setprototypeof"));

    private static final String WHOLE_RUNTIME = "es6_runtime";

    private static final Pattern HELPER_USE = Pattern.compile("\\$jscomp\\.([A-Za-z]+)");

    private ModernSyntax() {}

    /** The script and the helpers it needs, as ES5; the script's own code comes after the helpers. */
    record Transpiled(String code, String userCode) {}

    /**
     * Throws {@link InvalidScriptException} with the position in {@code source} when Closure's parser refuses the
     * script too, or when the compiler itself fails on it.
     */
    static Transpiled toEs5(String source, String sourceName) {
        var userCode = compile(source, sourceName, List.of());
        var modules = new TreeSet<String>();
        var uses = HELPER_USE.matcher(userCode);
        while (uses.find()) {
            modules.add(HELPERS.getOrDefault(uses.group(1), WHOLE_RUNTIME));
        }
        if (modules.isEmpty()) {
            return new Transpiled(userCode, userCode);
        }
        if (modules.contains(WHOLE_RUNTIME)) {
            modules.retainAll(List.of(WHOLE_RUNTIME));
        }
        return new Transpiled(compile(source, sourceName, List.copyOf(modules)), userCode);
    }

    private static String compile(String source, String sourceName, List<String> runtime) {
        var compiler = new Compiler(new PrintStream(OutputStream.nullOutputStream()));
        var options = new CompilerOptions();
        CompilationLevel.WHITESPACE_ONLY.setOptionsForCompilationLevel(options);
        options.setLanguageIn(CompilerOptions.LanguageMode.ECMASCRIPT_NEXT);
        options.setLanguageOut(CompilerOptions.LanguageMode.ECMASCRIPT5);
        // One statement per line, so a runtime error's line number still points at something readable.
        options.setPrettyPrint(true);
        options.setEmitUseStrict(false);
        options.setForceLibraryInjection(runtime);
        Result result;
        try {
            result = compiler.compile(
                    List.of(SourceFile.fromCode("externs.js", "")),
                    List.of(SourceFile.fromCode(sourceName, source)),
                    options);
        } catch (RuntimeException | StackOverflowError e) {
            throw new InvalidScriptException("the engine failed to parse the script: " + e);
        }
        if (!result.success || !result.errors.isEmpty()) {
            JSError error = result.errors.isEmpty() ? null : result.errors.get(0);
            if (error == null) {
                throw new InvalidScriptException("the script could not be rewritten for the engine");
            }
            throw InvalidScriptException.at(error.getDescription(), error.getLineNumber(), error.getCharno() + 1);
        }
        return compiler.toSource();
    }
}
