package dev.iotpipeline.ingest.problem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Gives the framework's own errors the same stable problem types as ours. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

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
}
