import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * The machine's floor for one hop between idle threads: a one-byte TCP round trip over loopback between two
 * threads, COUNT times with INTERVAL ms of idleness between them (p50 and p90 of the second half, in ms).
 * Usage: java bench/WakeLatency.java [COUNT] [INTERVAL_MS...]
 */
public class WakeLatency {

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        var intervals = args.length > 1 ? Arrays.copyOfRange(args, 1, args.length) : new String[] {"0", "10", "100"};
        for (var interval : intervals) {
            System.out.println(measure(count, Long.parseLong(interval)));
        }
    }

    private static String measure(int count, long intervalMs) throws Exception {
        try (var server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var echo = Thread.ofPlatform().daemon().start(() -> {
                try (var socket = server.accept()) {
                    socket.setTcpNoDelay(true);
                    var in = socket.getInputStream();
                    var out = socket.getOutputStream();
                    for (int b; (b = in.read()) >= 0; ) {
                        out.write(b);
                        out.flush();
                    }
                } catch (IOException e) {
                    // the client closed
                }
            });
            try (var client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                client.setTcpNoDelay(true);
                var in = client.getInputStream();
                var out = client.getOutputStream();
                var nanos = new long[count];
                for (int i = 0; i < count; i++) {
                    long start = System.nanoTime();
                    out.write(1);
                    out.flush();
                    in.read();
                    nanos[i] = System.nanoTime() - start;
                    Thread.sleep(intervalMs);
                }
                var tail = Arrays.copyOfRange(nanos, count / 2, count);
                Arrays.sort(tail);
                return "idle %d ms between round trips: p50 %.3f ms, p90 %.3f ms".formatted(intervalMs,
                        tail[tail.length / 2] / 1e6, tail[tail.length * 9 / 10] / 1e6);
            } finally {
                echo.interrupt();
            }
        }
    }
}
