package dev.iotpipeline.web.warmup;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads an HTTP/1.1 response's head off a raw socket, for warm-ups that talk to their own port without a client. */
public final class HttpHead {

    private HttpHead() {}

    /** The status line and headers up to the blank line (CRLF CRLF), as text; the body stays in {@code in}. */
    public static String read(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream(512);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed before the response's head was complete");
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1)
                    ? matched + 1
                    : b == '\r' ? 1 : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
