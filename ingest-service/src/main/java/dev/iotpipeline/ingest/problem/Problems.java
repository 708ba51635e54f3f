package dev.iotpipeline.ingest.problem;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** RFC 9457 problems with one stable {@code type} per cause, so clients can branch on it. */
public final class Problems {

    public static final String BASE = "https://iot-pipeline.dev/problems/";

    private Problems() {
    }

    public static ErrorResponseException of(HttpStatus status, String type, String detail) {
        return new ErrorResponseException(status, detail(status, type, detail), null);
    }

    public static ProblemDetail detail(HttpStatus status, String type, String detail) {
        var problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(BASE + type));
        problem.setTitle(status.getReasonPhrase());
        return problem;
    }
}
