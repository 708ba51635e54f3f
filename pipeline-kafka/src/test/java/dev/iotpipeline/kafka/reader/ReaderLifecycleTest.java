package dev.iotpipeline.kafka.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

class ReaderLifecycleTest {

    @Test
    void shouldStartTheReaderWithItsConfiguredTimeoutAndRunUntilStopped() {
        var given = new AtomicReference<Duration>();
        var lifecycle = new ReaderLifecycle("rules registry", Duration.ofSeconds(7), timeout -> {
            given.set(timeout);
            return true;
        });

        lifecycle.start();

        assertThat(given).hasValue(Duration.ofSeconds(7));
        assertThat(lifecycle.isRunning()).isTrue();
        lifecycle.stop();
        assertThat(lifecycle.isRunning()).isFalse();
    }

    @Test
    void shouldFailTheStartNamingTheReaderWhenItIsNotReadyInTime() {
        var lifecycle = new ReaderLifecycle("live feed", Duration.ofMillis(50), timeout -> false);

        assertThatThrownBy(lifecycle::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("live feed was not ready within PT0.05S");
        assertThat(lifecycle.isRunning()).isFalse();
    }

    @Test
    void shouldFailTheStartWithTheReadersOwnFailureAsCause() {
        var failure = new IllegalArgumentException("topic missing");
        var lifecycle = new ReaderLifecycle("device-types registry", Duration.ofSeconds(1), timeout -> {
            throw failure;
        });

        assertThatThrownBy(lifecycle::start)
                .hasMessage("device-types registry could not start")
                .hasCause(failure);
    }

    @Test
    void shouldStartBeforeTheWebServerKafkaStreamsAndListenerContainers() {
        // Spring Boot starts the web server in the phase before its graceful shutdown's (DEFAULT_PHASE - 1024).
        var webServerStart = SmartLifecycle.DEFAULT_PHASE - 2048;
        var streams = new StreamsBuilderFactoryBean().getPhase();
        var listeners = AbstractMessageListenerContainer.DEFAULT_PHASE;
        assertThat(new ReaderLifecycle("x", Duration.ZERO, t -> true).getPhase())
                .isLessThan(webServerStart)
                .isLessThan(streams)
                .isLessThan(listeners);
    }
}
