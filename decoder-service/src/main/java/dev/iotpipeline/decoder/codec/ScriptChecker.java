package dev.iotpipeline.decoder.codec;

import java.util.Set;
import java.util.regex.Pattern;
import org.mozilla.javascript.CompilerEnvirons;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.Parser;
import org.mozilla.javascript.ast.AstNode;
import org.mozilla.javascript.ast.AstRoot;
import org.mozilla.javascript.ast.BigIntLiteral;
import org.mozilla.javascript.ast.CatchClause;
import org.mozilla.javascript.ast.Name;
import org.mozilla.javascript.ast.NodeVisitor;

/** The check a script passes before it runs in {@link ScriptSandbox}: it parses, and names nothing of the host. */
final class ScriptChecker {

    /** Names that would reach the host if they resolved; refused at registration with their position. */
    static final Set<String> FORBIDDEN = Set.of(
            "java",
            "javax",
            "Java",
            "Packages",
            "JavaImporter",
            "JavaAdapter",
            "importPackage",
            "importClass",
            "require",
            "load",
            "loadClass",
            "Polyglot",
            "getClass",
            "__proto__");

    private ScriptChecker() {}

    /**
     * Parses without running, and refuses any reference to a host-access name. Every failure of the engine is
     * an {@link InvalidScriptException}, with a position when the engine reports one.
     */
    static void check(String source, String sourceName) {
        check(source, sourceName, source);
    }

    /**
     * As {@link #check(String, String)} for {@code source} rewritten from {@code original}: a refused name is
     * reported at its first occurrence in the original, which is what the user wrote.
     */
    static void check(String source, String sourceName, String original) {
        var env = new CompilerEnvirons();
        env.setLanguageVersion(Context.VERSION_ES6);
        env.setRecordingComments(false);
        AstRoot root;
        try {
            root = new Parser(env).parse(source, sourceName, 1);
        } catch (EvaluatorException e) {
            throw InvalidScriptException.syntaxError(e.details(), e.lineNumber(), e.columnNumber());
        } catch (RuntimeException e) {
            throw InvalidScriptException.syntaxError("the engine failed to parse the script: " + e, -1, -1);
        } catch (StackOverflowError e) {
            throw new InvalidScriptException("the script nests too deeply for the engine to parse");
        }
        try {
            root.visit(new ForbiddenNames(source, original));
        } catch (InvalidScriptException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new InvalidScriptException("the engine failed to analyse the script: " + e);
        } catch (StackOverflowError e) {
            throw new InvalidScriptException("the script nests too deeply for the engine to analyse");
        }
    }

    /** Refuses host-access names wherever they occur. */
    private record ForbiddenNames(String source, String original) implements NodeVisitor {

        @Override
        public boolean visit(AstNode node) {
            if (node instanceof Name name && FORBIDDEN.contains(name.getIdentifier())) {
                var message = "'" + name.getIdentifier() + "' is not available to codecs: they have no access to "
                        + "Java, modules or the host";
                var inOriginal = Pattern.compile("(?<![\\w$])" + Pattern.quote(name.getIdentifier()) + "(?![\\w$])")
                        .matcher(original);
                if (original != source && inOriginal.find()) {
                    int offset = inOriginal.start();
                    int line = 1
                            + (int) original.substring(0, offset)
                                    .chars()
                                    .filter(c -> c == '\n')
                                    .count();
                    throw InvalidScriptException.at(message, line, column(original, offset));
                }
                throw InvalidScriptException.at(message, node.getLineno(), column(source, node.getAbsolutePosition()));
            }
            if (node instanceof BigIntLiteral) {
                // See ScriptBuiltins.harden: BigInt arithmetic has no bounded cost in the engine.
                throw InvalidScriptException.at(
                        "BigInt is not available to codecs: its arithmetic has no bounded "
                                + "cost in the engine; use two 32-bit numbers",
                        node.getLineno(),
                        column(source, node.getAbsolutePosition()));
            }
            if (node instanceof CatchClause clause && clause.getVarName() == null) {
                // Rhino parses ES2019 `catch { }` (no binding) but CatchClause.visit dereferences the missing
                // name; its parts are visited here instead.
                if (clause.getCatchCondition() != null) {
                    clause.getCatchCondition().visit(this);
                }
                if (clause.getBody() != null) {
                    clause.getBody().visit(this);
                }
                return false;
            }
            return true;
        }
    }

    private static int column(String source, int offset) {
        int lineStart = source.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
        return offset - lineStart + 1;
    }
}
