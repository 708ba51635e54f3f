package dev.iotpipeline.localstack;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Starts again, with backoff, each part of a running stack whose process dies, and says on the console which part
 * died, how and when it is back; a part that keeps dying is reported loudly and left down.
 *
 * <p>The death of a child of this JVM (the broker, a service process) arrives as the JDK's exit event; only a part
 * that is not a child (PostgreSQL's postmaster, started by {@code pg_ctl}) is looked at every {@link
 * Policy#pollEvery}, so a quiet stack does not wake this thread for the others.
 */
final class Supervisor implements AutoCloseable {

    /** Starts a part again and returns once it is ready (its warm-up included); throws if it is not. */
    @FunctionalInterface
    interface Restart {
        void run() throws Exception;
    }

    /**
     * One supervised process, the broker, PostgreSQL or a service instance: the process running it now (empty while
     * it is down), how its last process ended as precisely as this JVM knows, and how it starts again.
     */
    record Part(String name, Supplier<Optional<ProcessHandle>> process, Supplier<String> ending, Restart restart) {}

    /**
     * When to restart: the first delay, its growth and ceiling, how many deaths in a window mean give up, and how
     * often a part that is not this JVM's child is looked at.
     */
    record Policy(Duration firstDelay, Duration maxDelay, int maxDeaths, Duration window, Duration pollEvery) {

        static final Policy DEFAULT = new Policy(
                Duration.ofMillis(500), Duration.ofSeconds(30), 5, Duration.ofMinutes(5), Duration.ofMillis(200));

        /** The delay before restart number {@code deaths} within the window: doubling from the first. */
        Duration delay(int deaths) {
            var delay = firstDelay.multipliedBy(1L << Math.min(20, Math.max(0, deaths - 1)));
            return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
        }
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final Duration ENDING_WAIT = Duration.ofSeconds(1);

    private final List<Part> parts;
    private final Policy policy;
    private final PrintStream console;
    private final Clock clock;
    // Only the supervisor's thread reads and writes it.
    private final Map<String, Deque<Instant>> deaths = new HashMap<>();
    private final Set<String> givenUp = ConcurrentHashMap.newKeySet();
    // Only the supervisor's thread reads and writes it: each part's process as last seen, and its exit event.
    private final Map<String, Watched> watched = new HashMap<>();
    private final Semaphore exited = new Semaphore(0);
    private final Thread thread;
    private volatile boolean closed;

    private Supervisor(List<Part> parts, Policy policy, PrintStream console, Clock clock) {
        this.parts = List.copyOf(parts);
        this.policy = policy;
        this.console = console;
        this.clock = clock;
        this.thread = Thread.ofPlatform().daemon().name("stack-supervisor").unstarted(this::watch);
    }

    /** Starts watching {@code parts}, each of which must be running now. */
    static Supervisor start(List<Part> parts, Policy policy, PrintStream console) {
        var supervisor = new Supervisor(parts, policy, console, Clock.systemDefaultZone());
        supervisor.thread.start();
        return supervisor;
    }

    /** Whether the supervisor stopped restarting {@code part} because it kept dying. */
    boolean gaveUp(String part) {
        return givenUp.contains(part);
    }

    private void watch() {
        while (!closed) {
            // Before the look, so that an exit event that comes during it leaves a permit for the next one.
            exited.drainPermits();
            boolean poll = false;
            for (var part : parts) {
                while (!closed && !givenUp.contains(part.name()) && dead(part)) {
                    recover(part);
                }
                var seen = watched.get(part.name());
                poll |= seen != null && seen.exit() == null && !givenUp.contains(part.name());
            }
            try {
                if (poll) {
                    exited.tryAcquire(policy.pollEvery().toMillis(), TimeUnit.MILLISECONDS);
                } else {
                    exited.acquire();
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * A part's process as the supervisor watches it: a child's exit event (the JDK's reaper waits for it without
     * polling), or none for a process this JVM did not start, whose liveness is then asked each time.
     */
    private record Watched(ProcessHandle process, CompletableFuture<ProcessHandle> exit) {}

    private boolean dead(Part part) {
        var process = part.process().get();
        if (process.isEmpty()) {
            watched.remove(part.name());
            return true;
        }
        var seen = watched.get(part.name());
        if (seen == null || !seen.process().equals(process.get())) {
            var handle = process.get();
            var child = handle.parent()
                    .map(p -> p.pid() == ProcessHandle.current().pid())
                    .orElse(false);
            seen = new Watched(handle, child ? handle.onExit() : null);
            if (child) {
                seen.exit().thenRun(exited::release);
            }
            watched.put(part.name(), seen);
        }
        return seen.exit() == null ? !seen.process().isAlive() : seen.exit().isDone();
    }

    /** Restarts a dead part until it is up, waiting longer after each death; gives up on one that keeps dying. */
    private void recover(Part part) {
        var diedAt = clock.instant();
        var ending = part.ending().get();
        while (!closed) {
            var recent = deaths.computeIfAbsent(part.name(), name -> new ArrayDeque<>());
            recent.addLast(clock.instant());
            while (!recent.isEmpty()
                    && recent.peekFirst().isBefore(clock.instant().minus(policy.window()))) {
                recent.removeFirst();
            }
            if (recent.size() > policy.maxDeaths()) {
                givenUp.add(part.name());
                console.printf(
                        "%n[supervisor] %s %s has died %d times within %s (last: %s) and is NOT restarted again."
                                + "%n[supervisor] The rest of the pipeline keeps running without it; fix the cause (see its log),"
                                + " then restart the pipeline.%n%n",
                        at(clock.instant()), part.name(), recent.size(), human(policy.window()), ending);
                return;
            }
            var delay = policy.delay(recent.size());
            console.printf(
                    "[supervisor] %s %s died (%s); restarting it in %s%n",
                    at(diedAt), part.name(), ending, human(delay));
            try {
                Thread.sleep(delay.toMillis());
                if (closed) {
                    return;
                }
                part.restart().run();
                var pid =
                        part.process().get().map(p -> " (pid " + p.pid() + ")").orElse("");
                console.printf(
                        "[supervisor] %s %s is back%s, ready %.1f s after it died%n",
                        at(clock.instant()),
                        part.name(),
                        pid,
                        Duration.between(diedAt, clock.instant()).toMillis() / 1000.0);
                return;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                ending = "its restart failed: " + firstLine(e);
                diedAt = clock.instant();
            }
        }
    }

    /** An exception's first line of message, or its class where it has none (a timeout's often has not). */
    static String firstLine(Exception e) {
        return Optional.ofNullable(e.getMessage())
                .flatMap(message ->
                        message.lines().filter(line -> !line.isBlank()).findFirst())
                .orElse(e.getClass().getSimpleName());
    }

    private String at(Instant instant) {
        return LocalTime.ofInstant(instant, ZoneId.systemDefault())
                .truncatedTo(ChronoUnit.SECONDS)
                .format(TIME);
    }

    private static String human(Duration duration) {
        if (duration.toMillis() % 1000 != 0) {
            return String.format("%.1f s", duration.toMillis() / 1000.0);
        }
        long seconds = duration.toSeconds();
        return seconds % 60 == 0 && seconds > 0 ? seconds / 60 + " min" : seconds + " s";
    }

    /**
     * How a child process ended: its exit code, or the signal that killed it (the JDK reports death by signal N
     * as 128 + N, as shells do).
     */
    static String ending(Process process) {
        if (process == null) {
            return "never started";
        }
        try {
            // The supervisor learns of a death from the process handle's exit event, which can come a moment before
            // this Process's own reaper has recorded the status (SupervisorTest in ci79: "last: still running").
            if (!process.waitFor(ENDING_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return "still running";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "still running";
        }
        int status = process.exitValue();
        if (status > 128 && status <= 128 + 64) {
            int signal = status - 128;
            return "killed by signal " + signal + signalName(signal);
        }
        return "exit code " + status;
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 1 -> ", SIGHUP";
            case 2 -> ", SIGINT";
            case 6 -> ", SIGABRT";
            case 9 -> ", SIGKILL";
            case 11 -> ", SIGSEGV";
            case 15 -> ", SIGTERM";
            default -> "";
        };
    }

    /** Stops watching; parts stopped after this are not restarted. Waits for a restart under way to end. */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(Duration.ofSeconds(60));
    }
}
