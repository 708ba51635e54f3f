package dev.iotpipeline.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Keeps the stack's child processes from outliving it: Java cannot ask Linux to signal a child when its
 * parent dies, so a tiny shell watchdog per child does it, even after a kill -9 of this JVM.
 */
final class Orphans {

    private static final String WATCHDOG = """
            parent=$1 child=$2 sig=$3
            while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 1; done
            kill -0 "$child" 2>/dev/null || exit 0
            kill -"$sig" "$child" 2>/dev/null
            for _ in $(seq 1 30); do kill -0 "$child" 2>/dev/null || exit 0; sleep 1; done
            kill -KILL "$child" 2>/dev/null
            """;

    private Orphans() {}

    /** Sends {@code signal} (e.g. "TERM", "INT") to {@code childPid} once this JVM is gone, KILL 30 s later. */
    static void reapWhenParentDies(long childPid, String signal) {
        run(
                List.of(
                        "sh",
                        "-c",
                        WATCHDOG,
                        "watchdog",
                        Long.toString(ProcessHandle.current().pid()),
                        Long.toString(childPid),
                        signal),
                false);
    }

    /** Sends a signal by name to a process, as {@code kill -<signal> <pid>} would. */
    static void signal(long pid, String signal) {
        run(List.of("kill", "-" + signal, Long.toString(pid)), true);
    }

    private static void run(List<String> command, boolean wait) {
        try {
            var process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (wait) {
                process.waitFor();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
