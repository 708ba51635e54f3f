package dev.iotpipeline.web.problem;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors that happen outside a controller (in a filter, or rejected by the servlet container) reach
 * {@code /error}; they are answered as problems too, instead of Spring Boot's default JSON or page.
 */
@RestController
public class ProblemErrorController implements ErrorController {

    private final RejectionCounter rejections;

    public ProblemErrorController(RejectionCounter rejections) {
        this.rejections = rejections;
    }

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        var code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        var status = HttpStatusCode.valueOf(code instanceof Integer c && c >= 400 && c < 600 ? c : 500);
        var problem = Problems.detail(
                status,
                ProblemAdvice.typeFor(new Exception(), status),
                status.is5xxServerError()
                        ? "The request failed unexpectedly"
                        : HttpStatus.resolve(status.value()) != null
                                ? HttpStatus.valueOf(status.value()).getReasonPhrase()
                                : "HTTP " + status.value());
        var uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        if (uri instanceof String path) {
            problem.setInstance(ProblemWriter.safeUri(path));
        }
        rejections.count(Problems.shortType(problem, status));
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
