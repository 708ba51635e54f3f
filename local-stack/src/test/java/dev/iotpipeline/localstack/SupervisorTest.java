package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The supervisor on real child processes, killed with kill -9. */
class SupervisorTest {

    private static final Supervisor.Policy FAST = new Supervisor.Policy(
            Duration.ofMillis(20), Duration.ofMillis(80), 3, Duration.ofMinutes(1), Duration.ofMillis(20));

    private static final Supervisor.Policy HOURLY_POLL = new Supervisor.Policy(
            Duration.ofMillis(20), Duration.ofMillis(80), 3, Duration.ofMinutes(1), Duration.ofHours(1));

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final PrintStream console = new PrintStream(output, true, StandardCharsets.UTF_8);
    private final List<Process> started = new ArrayList<>();
    private final List<ProcessHandle> grandchildren = new ArrayList<>();
    private Supervisor supervisor;

    /** A part whose process is a child started by {@code command}, started once now. */
    private final class ChildPart {
        volatile Process process;
        final AtomicInteger starts = new AtomicInteger();
        final List<String> command;

        ChildPart(String... command) throws IOException {
            this.command = List.of(command);
            start();
        }

        void start() throws IOException {
            process = new ProcessBuilder(command).start();
            started.add(process);
            starts.incrementAndGet();
        }

        Supervisor.Part part(String name) {
            return new Supervisor.Part(
                    name,
                    () -> Optional.ofNullable(process).map(Process::toHandle),
                    () -> Supervisor.ending(process),
                    this::start);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (supervisor != null) {
            supervisor.close();
        }
        started.forEach(Process::destroyForcibly);
        grandchildren.forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void aPartKilledWithSigkillIsStartedAgainAndTheConsoleSaysHowItDiedAndWhenItIsBack() throws Exception {
        var decoder = new ChildPart("sleep", "600");
        var broker = new ChildPart("sleep", "600");
        supervisor = Supervisor.start(List.of(decoder.part("decoder :8081"), broker.part("kafka")), FAST, console);
        long killed = decoder.process.pid();

        kill9(killed);

        await().atMost(Duration.ofSeconds(10)).until(() -> decoder.starts.get() == 2 && decoder.process.isAlive());
        await().atMost(Duration.ofSeconds(5)).until(() -> text().contains("decoder :8081 is back"));
        assertThat(decoder.process.pid()).isNotEqualTo(killed);
        assertThat(text())
                .contains("decoder :8081 died (killed by signal 9, SIGKILL); restarting it in 0.0 s")
                .containsPattern("\\d\\d:\\d\\d:\\d\\d decoder :8081 is back \\(pid " + decoder.process.pid()
                        + "\\), ready \\d+\\.\\d s after it died")
                .doesNotContain("kafka");
        assertThat(broker.starts).as("the part that did not die").hasValue(1);
    }

    @Test
    void theEndingWaitsForAnExitStatusTheProcessHasNotRecordedYet() {
        // As in ci79: the handle's exit event came first, and the Process's reaper recorded the status a moment later.
        var recordedLate = new Process() {
            // Recorded only once someone waits for it: a look without waiting finds the process "alive".
            private volatile boolean recorded;

            @Override
            public boolean isAlive() {
                return !recorded;
            }

            @Override
            public boolean waitFor(long timeout, TimeUnit unit) {
                recorded |= timeout > 0;
                return recorded;
            }

            @Override
            public int waitFor() {
                recorded = true;
                return 3;
            }

            @Override
            public int exitValue() {
                if (!recorded) {
                    throw new IllegalThreadStateException("process has not exited");
                }
                return 3;
            }

            @Override
            public OutputStream getOutputStream() {
                return OutputStream.nullOutputStream();
            }

            @Override
            public InputStream getInputStream() {
                return InputStream.nullInputStream();
            }

            @Override
            public InputStream getErrorStream() {
                return InputStream.nullInputStream();
            }

            @Override
            public void destroy() {}
        };

        assertThat(Supervisor.ending(recordedLate)).isEqualTo("exit code 3");
    }

    @Test
    void aPartThatKeepsDyingIsReportedLoudlyAndLeftDown() throws Exception {
        var crashing = new ChildPart("sh", "-c", "exit 3");
        supervisor = Supervisor.start(List.of(crashing.part("rules :8082")), FAST, console);

        await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.gaveUp("rules :8082"));
        int starts = crashing.starts.get();

        await("no restart after giving up")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .until(() -> crashing.starts.get() == starts);
        assertThat(starts)
                .as("the first start and one per death allowed in the window")
                .isEqualTo(1 + 3);
        assertThat(text())
                .contains(
                        "rules :8082 died (exit code 3)",
                        "rules :8082 has died 4 times within 1 min (last: exit code 3) and is NOT restarted again");
    }

    /** A failed restart's exception and what the console says of it: its first line, or its kind when it has none. */
    static Stream<Arguments> failedRestarts() {
        return Stream.of(
                Arguments.of(new IOException("port 5433 is still held\nsecond line"), "port 5433 is still held"),
                Arguments.of(new TimeoutException(), "TimeoutException"));
    }

    @ParameterizedTest
    @MethodSource("failedRestarts")
    void aRestartThatFailsIsReportedAndTriedAgainWithALongerDelay(Exception failure, String reported) throws Exception {
        var sleeper = new ChildPart("sleep", "600");
        var attempts = new AtomicInteger();
        var part = new Supervisor.Part(
                "postgres", () -> Optional.of(sleeper.process.toHandle()), () -> "its postmaster is gone", () -> {
                    if (attempts.incrementAndGet() == 1) {
                        throw failure;
                    }
                    sleeper.start();
                });
        supervisor = Supervisor.start(List.of(part), FAST, console);

        kill9(sleeper.process.pid());

        await().atMost(Duration.ofSeconds(10)).until(() -> text().contains("postgres is back"));
        assertThat(attempts).hasValue(2);
        assertThat(text())
                .contains(
                        "postgres died (its postmaster is gone); restarting it in 0.0 s",
                        "postgres died (its restart failed: " + reported + "); restarting it in 0.0 s")
                .doesNotContain("second line");
    }

    @Test
    void afterCloseNothingIsRestarted() throws Exception {
        var decoder = new ChildPart("sleep", "600");
        supervisor = Supervisor.start(List.of(decoder.part("decoder :8081")), FAST, console);
        supervisor.close();

        kill9(decoder.process.pid());
        decoder.process.waitFor();

        await().during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(2))
                .until(() -> decoder.starts.get() == 1 && text().isEmpty());
    }

    @Test
    void aChildIsNotLookedAtWhileItRunsAndItsDeathArrivesAsAnEvent() throws Exception {
        var decoder = new ChildPart("sleep", "600");
        var looks = new AtomicInteger();
        var part = decoder.part("decoder :8081");
        var counted = new Supervisor.Part(
                part.name(),
                () -> {
                    looks.incrementAndGet();
                    return part.process().get();
                },
                part.ending(),
                part.restart());
        supervisor = Supervisor.start(List.of(counted), HOURLY_POLL, console);

        await().atMost(Duration.ofSeconds(5)).until(() -> looks.get() >= 1);
        await("no look while it runs")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .until(() -> looks.get() == 1);
        kill9(decoder.process.pid());

        await().atMost(Duration.ofSeconds(10)).until(() -> text().contains("decoder :8081 is back"));
        assertThat(decoder.starts).hasValue(2);
    }

    @Test
    void aProcessThatIsNotThisJvmsChildIsLookedAtEveryPollInterval() throws Exception {
        var grandchild = new AtomicReference<ProcessHandle>(startGrandchild());
        var starts = new AtomicInteger(1);
        var part = new Supervisor.Part(
                "postgres", () -> Optional.of(grandchild.get()), () -> "its postmaster is gone", () -> {
                    grandchild.set(startGrandchild());
                    starts.incrementAndGet();
                });
        supervisor = Supervisor.start(List.of(part), FAST, console);
        long killed = grandchild.get().pid();

        kill9(killed);

        await().atMost(Duration.ofSeconds(10)).until(() -> text().contains("postgres is back"));
        assertThat(starts).hasValue(2);
        assertThat(grandchild.get().pid()).isNotEqualTo(killed);
    }

    @Test
    void theDelayDoublesFromTheFirstUpToItsCeiling() {
        var policy = Supervisor.Policy.DEFAULT;
        assertThat(List.of(policy.delay(1), policy.delay(2), policy.delay(3), policy.delay(7), policy.delay(60)))
                .containsExactly(
                        Duration.ofMillis(500),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(30));
    }

    private String text() {
        return output.toString(StandardCharsets.UTF_8);
    }

    /** A process started by a shell that exits at once, as pg_ctl starts PostgreSQL: not a child of this JVM. */
    private ProcessHandle startGrandchild() throws Exception {
        var shell = new ProcessBuilder("sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!").start();
        var pid = Long.parseLong(new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
        shell.waitFor();
        var handle = ProcessHandle.of(pid).orElseThrow();
        grandchildren.add(handle);
        return handle;
    }

    private static void kill9(long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor())
                .isZero();
    }
}
