package dev.iotpipeline.decoder.codec;

import java.util.Set;
import org.mozilla.javascript.CompilerEnvirons;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.EvaluatorException;
import org.mozilla.javascript.Parser;
import org.mozilla.javascript.ast.AstRoot;
import org.mozilla.javascript.ast.Name;

/**
 * The Rhino setup every JavaScript codec runs in: compiled to JVM bytecode, ES6, no Java classes
 * reachable (class shutter, no LiveConnect globals), and, checked by instruction counting, a CPU-time
 * deadline and an allocation budget per call, so a runaway script is stopped instead of holding its
 * thread or filling the heap.
 */
final class ScriptSandbox extends ContextFactory {

    /** Names that would reach the host if they resolved; refused at registration with their position. */
    static final Set<String> FORBIDDEN = Set.of("java", "javax", "Java", "Packages", "JavaImporter", "JavaAdapter",
            "importPackage", "importClass", "require", "load", "loadClass", "Polyglot", "getClass", "__proto__");

    static final ScriptSandbox INSTANCE = new ScriptSandbox();

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    /** Thrown from the instruction observer; an Error, so script try/catch cannot swallow it. */
    static final class Timeout extends Error {
        Timeout() {
            super("time limit exceeded", null, false, false);
        }
    }

    /** Thrown from the instruction observer when a call allocated more than its budget. */
    static final class OutOfBudget extends Error {
        OutOfBudget() {
            super("allocation budget exceeded", null, false, false);
        }
    }

    /** A context that knows when its current call must end and how much it may allocate. */
    static final class SandboxContext extends Context {
        long deadline = Long.MAX_VALUE;
        long allocationLimit = Long.MAX_VALUE;

        SandboxContext(ContextFactory factory) {
            super(factory);
        }

        /** Starts the budget of one call. */
        void limit(long timeLimitNanos, long allocationBytes) {
            deadline = System.nanoTime() + timeLimitNanos;
            allocationLimit = allocated() + allocationBytes;
        }
    }

    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private ScriptSandbox() {
    }

    @Override
    protected Context makeContext() {
        var cx = new SandboxContext(this);
        cx.setLanguageVersion(Context.VERSION_ES6);
        cx.setInterpretedMode(false);
        cx.setClassShutter(className -> false);
        cx.setInstructionObserverThreshold(5_000);
        return cx;
    }

    @Override
    protected void observeInstructionCount(Context cx, int instructionCount) {
        var sandbox = (SandboxContext) cx;
        if (System.nanoTime() > sandbox.deadline) {
            throw new Timeout();
        }
        if (allocated() > sandbox.allocationLimit) {
            throw new OutOfBudget();
        }
    }

    /** Parses without running, and refuses any reference to a host-access name. */
    static void check(String source, String sourceName) {
        var env = new CompilerEnvirons();
        env.setLanguageVersion(Context.VERSION_ES6);
        env.setRecordingComments(false);
        AstRoot root;
        try {
            root = new Parser(env).parse(source, sourceName, 1);
        } catch (EvaluatorException e) {
            throw new InvalidScriptException(e.details(), e.lineNumber(), e.columnNumber());
        }
        root.visit(node -> {
            if (node instanceof Name name && FORBIDDEN.contains(name.getIdentifier())) {
                int line = node.getLineno();
                int column = column(source, node.getAbsolutePosition());
                throw new InvalidScriptException("'" + name.getIdentifier() + "' is not available to codecs: "
                        + "they have no access to Java, modules or the host", line, column);
            }
            return true;
        });
    }

    private static int column(String source, int offset) {
        int lineStart = source.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
        return offset - lineStart + 1;
    }
}
