package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The warm-up's burst: its new connections' requests are in flight together, once, and not at all when it is off. */
class IngestWarmupTest {

    private static final int BURST = 64;

    /**
     * Answers every request 202, each only once the round's own request and the {@link #BURST} after it have all
     * arrived or a second has passed, counting connections and the most requests that waited at once.
     */
    private static final class HoldingServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        private final CountDownLatch arrived = new CountDownLatch(1 + BURST);
        private final AtomicInteger connections = new AtomicInteger();
        private final AtomicInteger waiting = new AtomicInteger();
        private final AtomicInteger mostWaiting = new AtomicInteger();

        HoldingServer() throws IOException {
            threads.submit(() -> {
                while (!socket.isClosed()) {
                    try {
                        var connection = socket.accept();
                        connections.incrementAndGet();
                        threads.submit(() -> serve(connection));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        private Void serve(Socket connection) throws Exception {
            try (connection) {
                // The warm-up's requests are ASCII, so one char is one byte, body included.
                var in = new BufferedReader(
                        new InputStreamReader(connection.getInputStream(), StandardCharsets.ISO_8859_1));
                int length;
                while ((length = readHead(in)) >= 0) {
                    for (long left = length; left > 0 && in.read() >= 0; left--) {}
                    mostWaiting.accumulateAndGet(waiting.incrementAndGet(), Math::max);
                    arrived.countDown();
                    arrived.await(1, TimeUnit.SECONDS);
                    connection
                            .getOutputStream()
                            .write("HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\n{}"
                                    .getBytes(StandardCharsets.US_ASCII));
                    waiting.decrementAndGet();
                }
            }
            return null;
        }

        /** Reads a request's head and answers its Content-Length (0 when none), or -1 at the end of the stream. */
        private static int readHead(BufferedReader in) throws IOException {
            int length = 0;
            String line = in.readLine();
            if (line == null) {
                return -1;
            }
            while (line != null && !line.isEmpty()) {
                if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
                line = in.readLine();
            }
            return length;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            threads.shutdownNow();
        }
    }

    private HoldingServer server;

    @BeforeEach
    void start() throws IOException {
        server = new HoldingServer();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private IngestWarmup warmup(int burst) {
        return new IngestWarmup(
                () -> server.socket.getLocalPort(), new Rehearsal(), null, null, null, (short) 1, burst);
    }

    @Test
    void opensItsBurstOfConnectionsWithTheirRequestsInFlightTogetherInItsRound() throws Exception {
        try (var warmup = warmup(BURST)) {
            warmup.exercise(IngestWarmup.BURST_ROUND);
        }

        // The round's own new connection, then the burst.
        assertThat(server.connections.get()).isEqualTo(1 + BURST);
        assertThat(server.mostWaiting.get()).isEqualTo(BURST);
    }

    @Test
    void opensNoBurstInAnyOtherRoundOrWhenItIsOff() throws Exception {
        try (var warmup = warmup(BURST)) {
            warmup.exercise(IngestWarmup.BURST_ROUND + 1);
        }
        try (var warmup = warmup(0)) {
            warmup.exercise(IngestWarmup.BURST_ROUND);
        }

        assertThat(server.connections.get()).isEqualTo(2);
    }
}
