package dev.iotpipeline.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the stack's child processes from outliving it: Java cannot ask Linux to signal a child when its
 * parent dies, so a tiny shell watchdog per child does it, even after a kill -9 of this JVM.
 */
final class Orphans {

    /*
     * Its input is a pipe from this JVM that the JVM never writes to: `read -t 1` waits on it in the shell itself
     * (the `sleep 1` it replaced started a process every second in each watchdog, ~1.5 ms of CPU a second apiece:
     * docs/benchmarks/idle.md), and returns at once with end of input when this JVM is gone, however it ended.
     * It ignores the signals a terminal's Ctrl-C, a hang-up or a `kill` of the launcher's process group send to every
     * process in the group: it is in that group, and one such signal used to end it along with the launcher (which
     * has no shutdown hook before READY), so a service stuck in its start outlived both.
     */
    private static final String WATCHDOG = """
            trap '' INT TERM HUP
            child=$1 sig=$2
            while kill -0 "$child" 2>/dev/null; do
              read -r -t 1 _
              status=$?
              [ "$status" -gt 128 ] || [ "$status" -eq 0 ] || break
            done
            kill -0 "$child" 2>/dev/null || exit 0
            kill -"$sig" "$child" 2>/dev/null
            for _ in $(seq 1 30); do kill -0 "$child" 2>/dev/null || exit 0; sleep 1; done
            kill -KILL "$child" 2>/dev/null
            """;

    /**
     * The running watchdogs: their input pipes must stay open in this JVM while they run, and a stream collected as
     * garbage would be closed, which a watchdog takes for this JVM's death.
     */
    private static final Set<Process> WATCHDOGS = ConcurrentHashMap.newKeySet();

    private Orphans() {}

    /** Sends {@code signal} (e.g. "TERM", "INT") to {@code childPid} once this JVM is gone, KILL 30 s later. */
    static void reapWhenParentDies(long childPid, String signal) {
        try {
            var watchdog = new ProcessBuilder("bash", "-c", WATCHDOG, "watchdog", Long.toString(childPid), signal)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            WATCHDOGS.add(watchdog);
            watchdog.onExit().thenRun(() -> WATCHDOGS.remove(watchdog));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a signal by name to a process, as {@code kill -<signal> <pid>} would. */
    static void signal(long pid, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
