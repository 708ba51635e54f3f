package dev.iotpipeline.kafka.batching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When a hop's records skip the linger: alone, filling a request of their own, or while the rate is low. */
class SendNowRuleTest {

    private final AtomicLong now = new AtomicLong();

    private SendNowRule rule(int below, int from, int belowRate) {
        return new SendNowRule(below, from, belowRate, new RecentRate(now::get));
    }

    @Test
    void shouldSendAtOnceWhatFindsLittleElseWaitingAndLetTheRestLinger() {
        var rule = rule(8, 32, 0);

        assertThat(rule.atOnce(7, 1)).isTrue();
        assertThat(rule.atOnce(8, 1)).isFalse();
    }

    @Test
    void shouldSendAtOnceWhatFillsARequestOfItsOwnHoweverBusy() {
        var rule = rule(1, 32, 0);

        assertThat(rule.atOnce(10_000, 31)).isFalse();
        assertThat(rule.atOnce(10_000, 32)).isTrue();
    }

    @Test
    void shouldSendEverythingAtOnceWhileFewerRecordsASecondComeThanTheRateBound() {
        var rule = rule(1, 1_000, 2_000);

        for (int i = 0; i < 1_999; i++) {
            assertThat(rule.atOnce(500, 1)).as("record %d of the second", i + 1).isTrue();
        }
        assertThat(rule.atOnce(500, 1)).as("the 2,000th of the second").isFalse();
        now.addAndGet(1_500_000_000L);
        assertThat(rule.atOnce(500, 1))
                .as("the second after still counts the busy one")
                .isFalse();
        now.addAndGet(1_000_000_000L);
        assertThat(rule.atOnce(500, 1)).as("a quiet second later").isTrue();
    }

    @Test
    void shouldNeverSendByRateWhenTheBoundIsZero() {
        var rule = rule(1, 1_000, 0);

        assertThat(rule.atOnce(5, 1)).isFalse();
    }
}
