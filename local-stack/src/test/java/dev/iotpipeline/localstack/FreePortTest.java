package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

class FreePortTest {

    @Test
    void handsOutDistinctBindablePortsBelowTheRangeOutgoingConnectionsDrawFrom() throws IOException {
        var ports = new HashSet<Integer>();
        for (int i = 0; i < 50; i++) {
            int port = EmbeddedStack.freePort();
            assertThat(port).isBetween(EmbeddedStack.LOWEST_PORT, EmbeddedStack.HIGHEST_PORT - 1);
            assertThat(ports.add(port)).as("handed out twice: %d", port).isTrue();
            try (var socket = new ServerSocket(port)) {
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
