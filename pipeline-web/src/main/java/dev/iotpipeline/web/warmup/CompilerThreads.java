package dev.iotpipeline.web.warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How long the JIT compiler threads have been runnable so far (on a CPU or waiting for one), from Linux's per-thread
 * scheduler statistics, so the settle sees a compilation while it runs: the JVM's own compilation time grows only
 * when a compilation ends, and a window in which the optimizing compiler worked on one large method, or waited for
 * a core the other processes held, looked idle to it (measured: ingest's C2 went on for 1.8 s after readiness,
 * {@code docs/benchmarks/raw/experiments/settle-compiler-cpu.md}).
 */
final class CompilerThreads {

    /** HotSpot's compiler threads as Linux names them (at most 15 characters: "C2 CompilerThre"). */
    private static final String[] NAMES = {"C1 Compiler", "C2 Compiler", "JVMCI Compiler"};

    private static final Path OWN_TASKS = Path.of("/proc/self/task");

    private CompilerThreads() {}

    /**
     * The compiler threads' runnable time in ms, or the JVM's compilation time where the scheduler's statistics
     * cannot be read; null where neither is known.
     */
    static LongSupplier cpuMillis() {
        if (readable(OWN_TASKS)) {
            return () -> cpuNanos(OWN_TASKS) / 1_000_000;
        }
        var compilation = ManagementFactory.getCompilationMXBean();
        return compilation != null && compilation.isCompilationTimeMonitoringSupported()
                ? compilation::getTotalCompilationTime
                : null;
    }

    private static boolean readable(Path tasks) {
        try {
            return cpuNanos(tasks) > 0;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    /**
     * Sums the compiler threads' time on a CPU and waiting for one (schedstat's first two fields, ns) over one
     * process's task directory.
     */
    static long cpuNanos(Path tasks) {
        long sum = 0;
        try (var threads = Files.newDirectoryStream(tasks)) {
            for (var thread : threads) {
                sum += compilerNanos(thread);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (DirectoryIteratorException e) {
            throw new UncheckedIOException(e.getCause());
        }
        return sum;
    }

    private static long compilerNanos(Path thread) {
        try {
            var name = Files.readString(thread.resolve("comm"));
            for (var prefix : NAMES) {
                if (name.startsWith(prefix)) {
                    var fields = Files.readString(thread.resolve("schedstat")).split(" ");
                    return Long.parseLong(fields[0]) + Long.parseLong(fields[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The thread ended between the listing and the read (compiler threads come and go with the queue).
        }
        return 0;
    }
}
