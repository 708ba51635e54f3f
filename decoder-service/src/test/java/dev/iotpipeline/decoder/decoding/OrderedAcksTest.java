package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.Acknowledgment;

class OrderedAcksTest {

    private static final TopicPartition P0 = new TopicPartition("uplinks.encoded", 0);
    private static final TopicPartition P1 = new TopicPartition("uplinks.encoded", 1);
    private static final TopicPartition P2 = new TopicPartition("uplinks.encoded", 2);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<String> given = new ArrayList<>();
    private final OrderedAcks acks = new OrderedAcks(Duration.ofMillis(200), now::get);

    private Acknowledgment ack(String name) {
        return () -> given.add(name);
    }

    @Test
    void acknowledgesInPollOrderWhenALaterBatchsWritesFinishFirst() {
        var first = new CompletableFuture<Void>();
        var second = new CompletableFuture<Void>();
        acks.add(first, ack("first"), Map.of(P0, 10L));
        acks.add(second, ack("second"), Map.of(P0, 20L));

        second.complete(null);
        acks.give(true);
        assertThat(given).as("the second batch waits for the first").isEmpty();

        first.complete(null);
        acks.give(true);
        assertThat(given).containsExactly("first", "second");
        assertThat(acks.pending()).isZero();
    }

    @Test
    void givesAtMostOncePerIntervalUnlessToldToGiveNow() {
        acks.add(CompletableFuture.completedFuture(null), ack("first"), Map.of(P0, 10L));
        assertThat(given).as("nothing given for an interval before: at once").containsExactly("first");

        now.addAndGet(Duration.ofMillis(50).toNanos());
        acks.add(CompletableFuture.completedFuture(null), ack("second"), Map.of(P0, 20L));
        acks.give(false);
        assertThat(given).as("within the interval of the last: held").containsExactly("first");

        now.addAndGet(Duration.ofMillis(200).toNanos());
        acks.add(CompletableFuture.completedFuture(null), ack("third"), Map.of(P0, 30L));
        assertThat(given).containsExactly("first", "second", "third");

        acks.add(CompletableFuture.completedFuture(null), ack("idle"), Map.of(P0, 40L));
        acks.give(true);
        assertThat(given).as("the idle event gives what is ready").endsWith("idle");
    }

    @Test
    void aFailedWriteHoldsItsBatchAndEveryLaterOneAndSaysWhereToReadEachPartitionAgain() throws Exception {
        var ok = new CompletableFuture<Void>();
        var failed = new CompletableFuture<Void>();
        var later = new CompletableFuture<Void>();
        acks.add(CompletableFuture.completedFuture(null), ack("done"), Map.of(P0, 5L));
        acks.add(ok, ack("ok"), Map.of(P0, 10L));
        acks.add(failed, ack("failed"), Map.of(P0, 20L, P1, 7L));
        acks.add(later, ack("later"), Map.of(P1, 9L));
        ok.complete(null);
        failed.completeExceptionally(new IllegalStateException("broker away"));
        later.complete(null);

        assertThat(acks.awaitInFlightAtMost(8, Duration.ofSeconds(1))).isFalse();
        // The batch just polled brings a partition no held batch has: it is read again from its start too.
        var readAgain = acks.takeFailure(Map.of(P0, 30L, P2, 40L));

        assertThat(given)
                .as("what came before the failure is acknowledged at once")
                .containsExactly("done", "ok");
        assertThat(readAgain).containsExactlyInAnyOrderEntriesOf(Map.of(P0, 20L, P1, 7L, P2, 40L));
        assertThat(acks.pending()).isZero();
        assertThat(acks.takeFailure(Map.of(P0, 30L))).as("nothing failed since").isNull();
    }

    @Test
    void awaitingInFlightWaitsForTheOldestAndGivesUpOnAWriteThatTakesTooLong() throws Exception {
        var slow = new CompletableFuture<Void>();
        acks.add(slow, ack("slow"), Map.of(P0, 10L));
        acks.add(CompletableFuture.completedFuture(null), ack("quick"), Map.of(P0, 20L));

        assertThat(acks.awaitInFlightAtMost(1, Duration.ofSeconds(1)))
                .as("one in flight is allowed")
                .isTrue();
        assertThat(acks.awaitInFlightAtMost(0, Duration.ofMillis(100))).isFalse();
        assertThat(acks.takeFailure(Map.of())).containsExactlyEntriesOf(Map.of(P0, 10L));
        assertThat(given).isEmpty();
    }

    @Test
    void beforePartitionsAreGivenUpWaitsForTheWritesInFlightAndAcknowledgesThem() {
        var inFlight = new CompletableFuture<Void>();
        acks.add(CompletableFuture.completedFuture(null), ack("first"), Map.of(P0, 10L));
        now.addAndGet(Duration.ofMillis(10).toNanos());
        acks.add(inFlight, ack("second"), Map.of(P0, 20L));
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> inFlight.complete(null));

        acks.following(null, Duration.ofSeconds(5)).onPartitionsRevokedBeforeCommit(null, List.of(P0));

        assertThat(given).containsExactly("first", "second");
        assertThat(acks.pending()).isZero();
    }
}
