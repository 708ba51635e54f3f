package dev.iotpipeline.decoder.codec;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;

/**
 * The Rhino setup every JavaScript codec runs in: ES6, no Java classes reachable, and per call a CPU-time
 * limit, a wall-clock backstop and an allocation budget, checked by instruction counting.
 */
final class ScriptSandbox extends ContextFactory {

    static final ScriptSandbox INSTANCE = new ScriptSandbox();

    /** Script instructions between two limit checks: rare enough to cost nothing measurable per call. */
    static final int CHECK_INTERVAL = 5_000;

    /**
     * Frames an interpreted script may nest; compiled scripts are bounded by the thread's stack instead
     * ({@link StackOverflowError}), interpreted ones keep their frames on the heap and need a bound of their own.
     */
    static final int MAX_INTERPRETER_DEPTH = 3_000;

    /** The wall-clock backstop is this many times the CPU-time limit, and at least {@link #MIN_BACKSTOP_NANOS}. */
    static final int BACKSTOP_FACTOR = 10;

    static final long MIN_BACKSTOP_NANOS = 1_000_000_000L;

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = cpuTimeAvailable();

    /** Thrown from the instruction observer; an Error, so script try/catch cannot swallow it. */
    static final class Timeout extends Error {

        /** Which clock ran out: CPU time, wall clock on a thread without a CPU-time counter, or the backstop. */
        enum Clock {
            CPU,
            WALL,
            BACKSTOP
        }

        final Clock clock;

        Timeout(Clock clock) {
            super("time limit exceeded", null, false, false);
            this.clock = clock;
        }
    }

    /** Thrown from the instruction observer when a call allocated more than its budget. */
    static final class OutOfBudget extends Error {
        OutOfBudget() {
            super("allocation budget exceeded", null, false, false);
        }
    }

    /** A context that knows the limits of its current call and whether the call is already over one. */
    static final class SandboxContext extends Context {
        private long timeLimitNanos;
        private long wallStart;
        private long wallBackstop;
        private boolean cpuClock;
        /** Read at the first check that needs it, so a short call costs no CPU-time system call. */
        private long cpuDeadline;

        private boolean cpuDeadlineSet;
        private long allocationStart;
        private long allocationLimit;
        private Error exceeded;

        SandboxContext(ContextFactory factory) {
            super(factory);
        }

        /** Starts the limits of one call. */
        void limit(long timeLimitNanos, long allocationBytes) {
            this.timeLimitNanos = timeLimitNanos;
            wallStart = System.nanoTime();
            wallBackstop = backstop(timeLimitNanos);
            // A virtual thread has no CPU-time counter (ThreadMXBean answers -1): it falls back to wall clock.
            cpuClock = CPU_TIME && !Thread.currentThread().isVirtual();
            cpuDeadlineSet = false;
            // A virtual thread has no allocation counter either (-1): no allocation budget applies there.
            allocationStart = allocated();
            allocationLimit = allocationStart < 0 ? Long.MAX_VALUE : allocationStart + allocationBytes;
            exceeded = null;
            setInstructionObserverThreshold(CHECK_INTERVAL);
        }

        /** Throws {@link Timeout} or {@link OutOfBudget} when the current call is over a limit. */
        void check() {
            if (exceeded != null) {
                throw exceeded;
            }
            long elapsed = System.nanoTime() - wallStart;
            if (elapsed > wallBackstop) {
                throw exceed(new Timeout(Timeout.Clock.BACKSTOP));
            }
            if (!cpuClock) {
                if (elapsed > timeLimitNanos) {
                    throw exceed(new Timeout(Timeout.Clock.WALL));
                }
            } else if (!cpuDeadlineSet) {
                // Reading the CPU-time counter costs a system call (~0.4 µs, as much as a whole decode), so it
                // is read at the first check, not per call; the time before it is charged as if it were CPU time.
                cpuDeadline = THREADS.getCurrentThreadCpuTime() + timeLimitNanos - elapsed;
                cpuDeadlineSet = true;
                if (elapsed > timeLimitNanos) {
                    throw exceed(new Timeout(Timeout.Clock.CPU));
                }
            } else if (elapsed > timeLimitNanos && THREADS.getCurrentThreadCpuTime() > cpuDeadline) {
                // Only read once it could matter: a thread cannot use more CPU time than wall time.
                throw exceed(new Timeout(Timeout.Clock.CPU));
            }
            if (allocationLimit != Long.MAX_VALUE && allocated() > allocationLimit) {
                throw exceed(new OutOfBudget());
            }
        }

        /**
         * The check after a call returned: a call that ran fewer instructions than {@link #CHECK_INTERVAL} was
         * never checked, yet one builtin call may have allocated far past the budget. Its time is only judged
         * against a CPU-time reading taken during the call, so a short call that was merely descheduled passes.
         * Returns the bytes the call allocated, -1 when the thread has no allocation counter.
         */
        long checkFinished() {
            if (exceeded != null) {
                throw exceeded;
            }
            long elapsed = System.nanoTime() - wallStart;
            if (elapsed > wallBackstop) {
                throw exceed(new Timeout(Timeout.Clock.BACKSTOP));
            }
            if (elapsed > timeLimitNanos) {
                if (!cpuClock) {
                    throw exceed(new Timeout(Timeout.Clock.WALL));
                }
                if (cpuDeadlineSet && THREADS.getCurrentThreadCpuTime() > cpuDeadline) {
                    throw exceed(new Timeout(Timeout.Clock.CPU));
                }
            }
            if (allocationLimit == Long.MAX_VALUE) {
                return -1;
            }
            long allocated = allocated();
            if (allocated > allocationLimit) {
                throw exceed(new OutOfBudget());
            }
            return allocated - allocationStart;
        }

        /** Bytes this thread allocated since the call started, -1 when the thread has no allocation counter. */
        long allocatedInCall() {
            return allocationStart < 0 ? -1 : allocated() - allocationStart;
        }

        /** The limit the current call went over, if it did, also when the script's finally hid it. */
        Error exceeded() {
            return exceeded;
        }

        private Error exceed(Error error) {
            exceeded = error;
            // Every later check point throws at once, so the rest of the call is a few instructions at most.
            setInstructionObserverThreshold(1);
            return error;
        }
    }

    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private static boolean cpuTimeAvailable() {
        try {
            return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** The wall-clock time a call may take whatever its CPU time, for a thread starved of CPU or stuck. */
    static long backstop(long timeLimitNanos) {
        long scaled =
                timeLimitNanos > Long.MAX_VALUE / BACKSTOP_FACTOR ? Long.MAX_VALUE : timeLimitNanos * BACKSTOP_FACTOR;
        return Math.max(MIN_BACKSTOP_NANOS, scaled);
    }

    private ScriptSandbox() {}

    // Why each part is there: the class shutter refuses every Java class, which also keeps Rhino from exposing
    // javaException/rhinoException on the errors a script catches; initSafeStandardObjects (ScriptRunner)
    // defines no Packages, java or importPackage; ScriptChecker refuses scripts that name them anyway, with a
    // position.
    // The limits are enforced by throwing a Java Error from the instruction observer: a script's catch never
    // sees an Error, and once a call is over a limit every later check throws again, so a finally that swallows
    // it only buys itself the instructions up to the next check point.
    @Override
    protected Context makeContext() {
        var cx = new SandboxContext(this);
        cx.setLanguageVersion(Context.VERSION_ES6);
        // Interpreted by default: a codec's own script is compiled explicitly (ScriptCompiler), so this
        // only decides how eval and new Function compile at run time, where generating a JVM class per call
        // would cost metaspace and time outside the instruction count.
        cx.setInterpretedMode(true);
        cx.setMaximumInterpreterStackDepth(MAX_INTERPRETER_DEPTH);
        cx.setClassShutter(className -> false);
        cx.setInstructionObserverThreshold(CHECK_INTERVAL);
        return cx;
    }

    @Override
    protected void observeInstructionCount(Context cx, int instructionCount) {
        ((SandboxContext) cx).check();
    }
}
