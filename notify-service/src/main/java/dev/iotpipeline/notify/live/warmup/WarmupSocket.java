package dev.iotpipeline.notify.live.warmup;

import dev.iotpipeline.web.warmup.HttpHead;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The smallest WebSocket client the warm-up needs (RFC 6455 over a plain socket: the upgrade, masked text frames
 * out, text frames in, pings answered), so that its time goes to the server's side rather than a client library's.
 */
final class WarmupSocket implements AutoCloseable {

    private static final int TEXT = 0x1;
    private static final int CLOSE = 0x8;
    private static final int PING = 0x9;
    private static final int PONG = 0xA;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private WarmupSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code path} on the loopback {@code port} with {@code token} as the bearer credential. */
    static WarmupSocket open(int port, String path, String token) throws IOException {
        var socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(5000);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            var client = new WarmupSocket(socket);
            client.upgrade(port, path, token);
            return client;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void upgrade(int port, String path, String token) throws IOException {
        var key = new byte[16];
        ThreadLocalRandom.current().nextBytes(key);
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\nAuthorization: Bearer "
                        + token + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        var status = HttpHead.read(in).lines().findFirst().orElse("");
        if (!status.startsWith("HTTP/1.1 101")) {
            throw new IOException("the WebSocket upgrade was answered " + status);
        }
    }

    void sendText(String text) throws IOException {
        write(TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The next text message; pings are answered on the way, a close ends the session with an exception. */
    String readText() throws IOException {
        var message = new ByteArrayOutputStream(512);
        while (true) {
            int first = read();
            int second = read();
            long length = second & 0x7F;
            if (length == 126) {
                length = (read() << 8) | read();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) {
                    length = (length << 8) | read();
                }
            }
            var payload = in.readNBytes((int) length);
            if (payload.length < length) {
                throw new EOFException("connection closed within a WebSocket frame");
            }
            switch (first & 0x0F) {
                case PING -> write(PONG, payload);
                case PONG -> {}
                case CLOSE -> throw new EOFException("the server closed the WebSocket session");
                default -> {
                    message.write(payload);
                    if ((first & 0x80) != 0) {
                        return message.toString(StandardCharsets.UTF_8);
                    }
                }
            }
        }
    }

    private int read() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed within a WebSocket frame");
        }
        return b;
    }

    /** One frame, masked as a client's must be. */
    private void write(int opcode, byte[] payload) throws IOException {
        var frame = new ByteArrayOutputStream(payload.length + 8);
        frame.write(0x80 | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        } else {
            throw new IllegalArgumentException("the warm-up sends no message over 64 KiB");
        }
        var mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** Sends a normal close (1000) and closes the connection without waiting for the server's answer. */
    @Override
    public void close() throws IOException {
        try {
            write(CLOSE, new byte[] {0x03, (byte) 0xE8});
        } catch (IOException ignored) {
            // Closed already: nothing to say goodbye to.
        } finally {
            socket.close();
        }
    }
}
