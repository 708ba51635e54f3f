package dev.iotpipeline.notify.live.session;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.iotpipeline.notify.NotifyProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/** The heartbeat over the open sessions, with stand-ins for the sockets. */
class SessionsTest {

    // Every session counts as idle at once, so each heartbeat closes all of them.
    private final Sessions sessions = new Sessions(
            new NotifyProperties.WebSocket(
                    10, Duration.ofSeconds(10), Duration.ofSeconds(25), Duration.ZERO, 1000, 1000, 1, 65536, 10, 10),
            Executors.newVirtualThreadPerTaskExecutor(),
            new LiveMetrics(new SimpleMeterRegistry(), () -> 0));

    @Test
    void aSessionWhoseCloseFailsStillLetsTheHeartbeatCloseTheOthersWithoutThrowing() throws Exception {
        var failing = socket("a");
        doThrow(new IllegalStateException("the container refused"))
                .when(failing)
                .close(any(CloseStatus.class));
        var other = socket("b");
        sessions.open(failing, "dashboard");
        sessions.open(other, "dashboard");

        // A heartbeat that threw would end its scheduled executor's schedule for good.
        assertThatCode(sessions::heartbeat).doesNotThrowAnyException();

        verify(failing).close(Sessions.IDLE);
        verify(other).close(Sessions.IDLE);
    }

    private static WebSocketSession socket(String id) {
        var session = mock(WebSocketSession.class);
        when(session.getId()).thenReturn(id);
        when(session.getAttributes()).thenReturn(new HashMap<>());
        return session;
    }
}
