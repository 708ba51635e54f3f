package dev.iotpipeline.web.limits;

import java.io.IOException;

/** Thrown while a request body is read once it passes the limit; the problem advice answers 413. */
public final class BodyTooLargeException extends IOException {

    private final long limit;

    BodyTooLargeException(long limit) {
        super("The request body is larger than " + limit + " bytes");
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }
}
