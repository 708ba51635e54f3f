package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class TopicPartitionsTest {

    @Test
    void shouldKeepTheDeclarationsAndNotWaitOutTheAdminsCallTimeoutWhenNoBrokerAnswers() throws IOException {
        int closed;
        try (var socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        var declared = new NewTopic("uplinks", Optional.of(6), Optional.empty());

        // The describe gives up after 10 s; the admin's pending call would hold close() for its own minute.
        var kept = assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> TopicPartitions.keepExisting(
                        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closed), declared));

        assertThat(kept).isSameAs(declared);
    }
}
