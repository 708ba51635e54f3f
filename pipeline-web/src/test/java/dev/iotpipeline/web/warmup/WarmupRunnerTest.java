package dev.iotpipeline.web.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The runner's turns, budgets and failures, on recording warm-ups. */
class WarmupRunnerTest {

    private final List<String> calls = new ArrayList<>();

    private Warmup recording(String name, int failAtRound) {
        return new Warmup() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void exercise(int round) {
                calls.add(name + round);
                if (round == failAtRound) {
                    throw new IllegalStateException("no broker");
                }
            }
        };
    }

    @Test
    void runsEveryWarmupInTurnsForTheConfiguredRounds() {
        new WarmupRunner(
                        List.of(recording("a", -1), recording("b", -1)),
                        new WarmupProperties(true, 3, Duration.ofSeconds(30), Duration.ZERO, false))
                .run(null);

        assertThat(calls).containsExactly("a0", "b0", "a1", "b1", "a2", "b2");
    }

    @Test
    void dropsAWarmupThatFailsAndGoesOnWithTheOthers() {
        new WarmupRunner(
                        List.of(recording("a", 1), recording("b", -1)),
                        new WarmupProperties(true, 4, Duration.ofSeconds(30), Duration.ZERO, false))
                .run(null);

        assertThat(calls).containsExactly("a0", "b0", "a1", "b1", "b2", "b3");
    }

    @Test
    void stopsWhenItsTimeIsUp() {
        var slow = new Warmup() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public void exercise(int round) throws InterruptedException {
                calls.add("slow" + round);
                Thread.sleep(20);
            }
        };

        new WarmupRunner(
                        List.of(slow),
                        new WarmupProperties(true, 1_000_000, Duration.ofMillis(100), Duration.ZERO, false))
                .run(null);

        assertThat(calls.size()).isBetween(2, 10);
    }

    @Test
    void waitsAfterItsRoundsUntilTheCompilersAreQuiet() {
        // Busy for the whole of three windows, then idle.
        var compiled = new AtomicLong();
        var reads = new AtomicInteger();
        LongSupplier compilation = () -> reads.getAndIncrement() <= 3
                ? compiled.addAndGet(WarmupRunner.SETTLE_WINDOW.toMillis())
                : compiled.get();
        long started = System.nanoTime();

        new WarmupRunner(
                        List.of(recording("a", -1)),
                        new WarmupProperties(true, 1, Duration.ofSeconds(30), Duration.ofSeconds(30), false),
                        compilation,
                        () -> {})
                .run(null);

        assertThat(reads.get()).isEqualTo(5);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isGreaterThanOrEqualTo(WarmupRunner.SETTLE_WINDOW.multipliedBy(4));
    }

    @Test
    void stopsSettlingWhenItsTimeIsUp() {
        var compiled = new AtomicLong();
        LongSupplier alwaysBusy = () -> compiled.addAndGet(WarmupRunner.SETTLE_WINDOW.toMillis());
        long started = System.nanoTime();

        new WarmupRunner(
                        List.of(recording("a", -1)),
                        new WarmupProperties(true, 1, Duration.ofSeconds(30), Duration.ofMillis(350), false),
                        alwaysBusy,
                        () -> {})
                .run(null);

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isGreaterThanOrEqualTo(Duration.ofMillis(350))
                .isLessThan(Duration.ofSeconds(5));
    }

    @ParameterizedTest(name = "collect={0}")
    @ValueSource(booleans = {true, false})
    void collectsTheHeapOnceAfterItsRoundsUnlessTurnedOff(boolean collect) {
        new WarmupRunner(
                        List.of(recording("a", -1)),
                        new WarmupProperties(true, 2, Duration.ofSeconds(30), Duration.ZERO, collect),
                        null,
                        () -> calls.add("collected"))
                .run(null);

        assertThat(calls).isEqualTo(collect ? List.of("a0", "a1", "collected") : List.of("a0", "a1"));
    }

    @Test
    void runsNothingWhenTurnedOff() {
        new WarmupRunner(
                        List.of(recording("a", -1)),
                        new WarmupProperties(false, 3, Duration.ofSeconds(30), Duration.ZERO, false))
                .run(null);

        assertThat(calls).isEmpty();
    }
}
