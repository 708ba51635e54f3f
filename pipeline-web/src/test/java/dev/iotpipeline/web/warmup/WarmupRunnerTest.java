package dev.iotpipeline.web.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
                        new WarmupProperties(true, 3, Duration.ofSeconds(30)))
                .run(null);

        assertThat(calls).containsExactly("a0", "b0", "a1", "b1", "a2", "b2");
    }

    @Test
    void dropsAWarmupThatFailsAndGoesOnWithTheOthers() {
        new WarmupRunner(
                        List.of(recording("a", 1), recording("b", -1)),
                        new WarmupProperties(true, 4, Duration.ofSeconds(30)))
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

        new WarmupRunner(List.of(slow), new WarmupProperties(true, 1_000_000, Duration.ofMillis(100))).run(null);

        assertThat(calls.size()).isBetween(2, 10);
    }

    @Test
    void runsNothingWhenTurnedOff() {
        new WarmupRunner(List.of(recording("a", -1)), new WarmupProperties(false, 3, Duration.ofSeconds(30))).run(null);

        assertThat(calls).isEmpty();
    }
}
