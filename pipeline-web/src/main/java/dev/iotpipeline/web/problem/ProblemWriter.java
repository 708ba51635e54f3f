package dev.iotpipeline.web.problem;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponse;
import tools.jackson.databind.json.JsonMapper;

/** Writes problems from servlet filters (security, body limits), where no controller advice runs. */
public final class ProblemWriter {

    private final JsonMapper json;
    private final RejectionCounter rejections;

    /** {@code json} is the MVC mapper, which renders a problem's extension members the way the advice does. */
    public ProblemWriter(JsonMapper json, RejectionCounter rejections) {
        this.json = json;
        this.rejections = rejections;
    }

    public void write(HttpServletResponse response, String path, HttpStatus status, String type, String detail)
            throws IOException {
        write(response, path, Problems.detail(status, type, detail));
    }

    /** An exception's problem with its headers (a 503's or 429's {@code Retry-After}). */
    public void write(HttpServletResponse response, String path, ErrorResponse error) throws IOException {
        if (!response.isCommitted()) {
            error.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        }
        write(response, path, error.getBody());
    }

    public void write(HttpServletResponse response, String path, ProblemDetail problem) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        problem.setInstance(safeUri(path));
        rejections.count(Problems.shortType(problem, HttpStatusCode.valueOf(problem.getStatus())));
        response.resetBuffer();
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(json.writeValueAsBytes(problem));
        response.flushBuffer();
    }

    static URI safeUri(String path) {
        try {
            return path == null ? null : URI.create(path);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
