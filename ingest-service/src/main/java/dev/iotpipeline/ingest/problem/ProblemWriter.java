package dev.iotpipeline.ingest.problem;

import dev.iotpipeline.events.EventJson;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/** Writes problems from servlet filters (security), where no controller advice runs. */
public final class ProblemWriter {

    private final RejectionCounter rejections;

    public ProblemWriter(RejectionCounter rejections) {
        this.rejections = rejections;
    }

    public void write(HttpServletResponse response, String instance, HttpStatus status, String type, String detail)
            throws IOException {
        var problem = Problems.detail(status, type, detail);
        problem.setInstance(java.net.URI.create(instance));
        rejections.count(type);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(EventJson.write(problem));
    }
}
