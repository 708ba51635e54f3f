package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OrphansTest {

    private Process child;

    @AfterEach
    void stopChild() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    @Test
    void shouldWatchWithoutStartingAProcessEverySecond() throws Exception {
        var watchdog = watchedChild();

        // The watchdog that slept with `sleep 1` had that process as its child nearly all of the time.
        for (int sample = 0; sample < 12; sample++) {
            assertThat(watchdog.children().toList())
                    .as("the watchdog's processes")
                    .isEmpty();
            Thread.sleep(250);
        }
        assertThat(watchdog.isAlive()).isTrue();
        assertThat(child.isAlive()).as("left alone while this JVM lives").isTrue();
    }

    @Test
    void shouldEndWithItsChild() throws Exception {
        var watchdog = watchedChild();

        child.destroyForcibly().waitFor();

        await().atMost(Duration.ofSeconds(5)).until(() -> !watchdog.isAlive());
    }

    @Test
    void shouldOutliveTheSignalsSentToItsProcessGroupAndStillEndWithItsChild() throws Exception {
        var watchdog = watchedChild();

        for (var signal : List.of("INT", "TERM", "HUP")) {
            Orphans.signal(watchdog.pid(), signal);
        }
        // Still alive throughout, not only at the end: a watchdog the signals ended would be gone at once.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(watchdog::isAlive);
        child.destroyForcibly().waitFor();
        await().atMost(Duration.ofSeconds(5)).until(() -> !watchdog.isAlive());
    }

    /** Starts a long-lived child under a watchdog; returns the watchdog. */
    private ProcessHandle watchedChild() throws Exception {
        child = new ProcessBuilder("sleep", "600").start();
        Orphans.reapWhenParentDies(child.pid(), "TERM");
        return await().atMost(Duration.ofSeconds(5))
                .until(() -> watchdogOf(child.pid()), Optional::isPresent)
                .orElseThrow();
    }

    /** The watchdog shell this JVM started for {@code pid}. */
    private static Optional<ProcessHandle> watchdogOf(long pid) {
        return ProcessHandle.current()
                .children()
                .filter(p -> p.info()
                        .arguments()
                        .map(List::of)
                        .map(args -> args.contains("watchdog") && args.contains(Long.toString(pid)))
                        .orElse(false))
                .findFirst();
    }
}
