package dev.iotpipeline.web.problem;

import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** RFC 9457 problems with one stable {@code type} per cause, so clients can branch on it. */
public final class Problems {

    public static final String BASE = "https://iot-pipeline.dev/problems/";

    private Problems() {}

    /** An exception a controller throws; the shared advice renders it as {@code application/problem+json}. */
    public static ErrorResponseException of(HttpStatus status, String type, String detail) {
        return new ErrorResponseException(status, detail(status, type, detail), null);
    }

    /** The same, with extension members (e.g. {@code field}, {@code line}) a client can act on. */
    public static ErrorResponseException of(HttpStatus status, String type, String detail, Map<String, ?> properties) {
        var problem = detail(status, type, detail);
        properties.forEach(problem::setProperty);
        return new ErrorResponseException(status, problem, null);
    }

    public static ProblemDetail detail(HttpStatusCode status, String type, String detail) {
        var problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(BASE + type));
        var reason = HttpStatus.resolve(status.value());
        problem.setTitle(reason != null ? reason.getReasonPhrase() : "HTTP " + status.value());
        return problem;
    }

    /** The answer to a failure no handler knows (a bug): the incident id the service logged it with, never its details. */
    public static ProblemDetail unexpected(UUID incident) {
        var problem = detail(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "internal-error",
                "The request failed unexpectedly; the service logged it as incident " + incident);
        problem.setProperty("incident", incident.toString());
        return problem;
    }

    /** The short name of a problem type ({@code malformed-json}), for metrics and logs. */
    public static String shortType(ProblemDetail problem, HttpStatusCode status) {
        var type = problem.getType() == null ? "" : problem.getType().toString();
        return type.startsWith(BASE) ? type.substring(BASE.length()) : "http-" + status.value();
    }
}
