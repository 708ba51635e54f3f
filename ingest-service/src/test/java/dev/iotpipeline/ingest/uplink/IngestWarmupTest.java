package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The warm-up's burst: its new connections' requests are in flight together, once, and not at all when it is off. */
class IngestWarmupTest {

    private static final int BURST = 64;

    /**
     * Answers every request 202, each only once {@link #BURST} requests are waiting or a second has passed, counting
     * connections and the most requests that waited at once.
     */
    private static final class HoldingServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
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
                var in = connection.getInputStream();
                while (readRequest(in)) {
                    mostWaiting.accumulateAndGet(waiting.incrementAndGet(), Math::max);
                    long until = System.nanoTime() + 1_000_000_000L;
                    while (waiting.get() < BURST && System.nanoTime() < until) {
                        Thread.sleep(1);
                    }
                    connection
                            .getOutputStream()
                            .write("HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\n{}"
                                    .getBytes(StandardCharsets.US_ASCII));
                    waiting.decrementAndGet();
                }
            }
            return null;
        }

        /** Reads one request's head and body; false at the end of the stream. */
        private static boolean readRequest(InputStream in) throws IOException {
            var head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                if (head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                    var length = head.toString(StandardCharsets.US_ASCII)
                            .lines()
                            .filter(line -> line.startsWith("Content-Length:"))
                            .map(line -> Integer.parseInt(line.substring(15).trim()))
                            .findFirst()
                            .orElse(0);
                    in.readNBytes(length);
                    return true;
                }
            }
            return false;
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
        return new IngestWarmup(() -> server.socket.getLocalPort(), new Rehearsal(), null, null, (short) 1, burst);
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
