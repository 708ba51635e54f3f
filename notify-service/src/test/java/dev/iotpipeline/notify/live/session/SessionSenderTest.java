package dev.iotpipeline.notify.live.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;

/** The per-session send policy; the socket is a stand-in whose writes block until the test lets them go. */
class SessionSenderTest {

    private final List<String> written = new CopyOnWriteArrayList<>();
    private final List<String> drops = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final WebSocketSession socket = mock(WebSocketSession.class);
    private final SessionSender.Listener listener = new SessionSender.Listener() {
        @Override
        public void sent(String stream, Instant receivedAt) {}

        @Override
        public void dropped(String cause) {
            drops.add(cause);
        }

        @Override
        public void queued(int depth) {}
    };

    SessionSenderTest() throws Exception {
        when(socket.getId()).thenReturn("s");
        doAnswer(call -> {
                    release.await();
                    written.add(((TextMessage) call.getArgument(0)).getPayload());
                    return null;
                })
                .when(socket)
                .sendMessage(any());
    }

    @Test
    void shouldDropTheOldestMessagesOfASlowClientAndTellItHowManyItLost() {
        var sender = new SessionSender(
                socket, Executors.newVirtualThreadPerTaskExecutor(), 3, Duration.ofMinutes(1), listener);

        // the first message is being written (blocked); five more arrive for a queue of three
        for (int i = 0; i < 6; i++) {
            sender.send("m" + i, "data-units", Instant.now());
            if (i == 0) {
                await().atMost(Duration.ofSeconds(5)).until(() -> sender.queued() == 0);
            }
        }
        release.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> written.size() == 5);
        assertThat(written).containsExactly("m0", "{\"type\":\"dropped\",\"count\":2}", "m3", "m4", "m5");
        assertThat(drops).containsExactly("buffer-full", "buffer-full");
    }

    @Test
    void shouldMakeAReplayWaitForRoomInsteadOfDropping() throws Exception {
        var sender = new SessionSender(
                socket, Executors.newVirtualThreadPerTaskExecutor(), 2, Duration.ofMinutes(1), listener);
        var replay = Executors.newVirtualThreadPerTaskExecutor().submit(() -> {
            for (int i = 0; i < 6; i++) {
                sender.sendWhenRoom("r" + i, "data-units", null);
            }
            return true;
        });

        // while the socket is stuck the replay cannot get ahead of it
        await().atMost(Duration.ofSeconds(5)).until(() -> sender.queued() == 2);
        assertThat(replay).isNotDone();
        release.countDown();

        assertThat(replay.get(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> written.size() == 6);
        assertThat(written).containsExactly("r0", "r1", "r2", "r3", "r4", "r5");
        assertThat(drops).isEmpty();
    }

    @Test
    void shouldNeverBlockTheCallerWhileTheSocketIsStuck() {
        var sender = new SessionSender(
                socket, Executors.newVirtualThreadPerTaskExecutor(), 10, Duration.ofMinutes(1), listener);

        long started = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            sender.send("m" + i, "alarms", Instant.now());
        }

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(sender.queued()).isLessThanOrEqualTo(10);
        release.countDown();
    }

    @Test
    void shouldCloseAClientThatStaysBehindWith1013() throws Exception {
        var closed = new CountDownLatch(1);
        doAnswer(call -> {
                    assertThat(call.<CloseStatus>getArgument(0).getCode()).isEqualTo(1013);
                    closed.countDown();
                    return null;
                })
                .when(socket)
                .close(any());
        var sender = new SessionSender(
                socket, Executors.newVirtualThreadPerTaskExecutor(), 1, Duration.ofMillis(50), listener);

        sender.send("first", "alarms", Instant.now());
        await().atMost(Duration.ofSeconds(5)).until(() -> sender.queued() == 0);

        // the socket stays stuck while messages keep coming: once it has been behind for 50 ms, it is closed
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    sender.send("more", "alarms", Instant.now());
                    return closed.getCount() == 0;
                });
        release.countDown();
    }
}
