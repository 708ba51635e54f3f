package dev.iotpipeline.ingest.problem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Gives the framework's own errors the same stable problem types as ours, and counts every rejection. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private final RejectionCounter rejections;

    ProblemHandler(RejectionCounter rejections) {
        this.rejections = rejections;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var cause = ex.getMostSpecificCause();
        var detail = "Request body is not valid JSON for this endpoint: " + cause.getMessage().lines().findFirst().orElse("");
        return handleExceptionInternal(ex, Problems.detail(HttpStatus.BAD_REQUEST, "malformed-json", detail),
                headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var detail = "Content-Type " + ex.getContentType() + " is not supported; send application/json";
        return handleExceptionInternal(ex, Problems.detail(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type", detail), headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem && problem.getType() != null) {
            var type = problem.getType().toString();
            rejections.count(type.startsWith(Problems.BASE) ? type.substring(Problems.BASE.length()) : "http-" + statusCode.value());
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }
}
