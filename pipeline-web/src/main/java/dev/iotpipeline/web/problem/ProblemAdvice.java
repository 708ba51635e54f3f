package dev.iotpipeline.web.problem;

import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Every error of every endpoint as {@code application/problem+json} with a stable {@code type}: the framework's
 * own exceptions, bodies that do not bind (naming the field and what was expected), and anything unexpected,
 * which is logged with an id and answered without its message, class name or stack trace.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    private final RejectionCounter rejections;

    public ProblemAdvice(RejectionCounter rejections) {
        this.rejections = rejections;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var problem = JsonProblems.describe(ex);
        return handleExceptionInternal(ex, problem, headers, HttpStatusCode.valueOf(problem.getStatus()), request);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(
            TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
        var problem = Problems.detail(
                HttpStatus.BAD_REQUEST,
                "invalid-parameter",
                name + ": '" + ex.getValue() + "' is not " + JsonProblems.expected(ex.getRequiredType()));
        problem.setProperty("parameter", name);
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var errors = ex.getFieldErrors().stream()
                .map(e -> e.getField() + ": " + e.getDefaultMessage())
                .toList();
        var problem = Problems.detail(
                HttpStatus.BAD_REQUEST,
                "invalid-field",
                errors.isEmpty() ? "The body is not valid" : String.join("; ", errors));
        if (!ex.getFieldErrors().isEmpty()) {
            problem.setProperty("field", ex.getFieldErrors().getFirst().getField());
        }
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
            HttpMediaTypeNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // The route's own types (a bulk import takes CSV or NDJSON); JSON for the routes that declare none.
        var supported = ex.getSupportedMediaTypes().isEmpty()
                ? "application/json"
                : String.join(
                        " or ",
                        ex.getSupportedMediaTypes().stream()
                                .map(Object::toString)
                                .toList());
        var detail = "Content-Type " + ex.getContentType() + " is not supported; send " + supported;
        return handleExceptionInternal(
                ex,
                Problems.detail(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", detail),
                headers,
                status,
                request);
    }

    /** Anything no other handler knows: a bug, logged with an id the answer quotes, never its details. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
        var incident = UUID.randomUUID();
        log.error("Unexpected error {} on {}", incident, describe(request), ex);
        var problem = Problems.unexpected(incident);
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
    }

    private static String describe(WebRequest request) {
        return request instanceof ServletWebRequest servlet
                ? servlet.getRequest().getMethod() + " " + servlet.getRequest().getRequestURI()
                : request.getDescription(false);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        var problem = body instanceof ProblemDetail detail
                ? detail
                : ex instanceof ErrorResponse response
                        ? response.getBody()
                        : Problems.detail(
                                statusCode,
                                typeFor(ex, statusCode),
                                HttpStatus.resolve(statusCode.value()) == null
                                        ? "HTTP " + statusCode.value()
                                        : HttpStatus.valueOf(statusCode.value()).getReasonPhrase());
        if (problem.getType() == null || "about:blank".equals(problem.getType().toString())) {
            var typed = Problems.detail(statusCode, typeFor(ex, statusCode), problem.getDetail());
            if (problem.getProperties() != null) {
                problem.getProperties().forEach(typed::setProperty);
            }
            problem = typed;
        }
        rejections.count(Problems.shortType(problem, statusCode));
        return super.handleExceptionInternal(ex, problem, headers, statusCode, request);
    }

    /** A stable type for the framework's exceptions, which carry {@code about:blank}. */
    static String typeFor(Exception ex, HttpStatusCode status) {
        if (ex instanceof NoResourceFoundException) {
            return "not-found";
        }
        if (ex instanceof HttpRequestMethodNotSupportedException) {
            return "method-not-allowed";
        }
        if (ex instanceof MissingServletRequestParameterException || ex instanceof MissingRequestHeaderException) {
            return "missing-parameter";
        }
        if (ex instanceof HandlerMethodValidationException) {
            return "invalid-parameter";
        }
        return switch (status.value()) {
            case 400 -> "bad-request";
            case 401 -> "missing-credentials";
            case 403 -> "forbidden";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 409 -> "conflict";
            case 413 -> "request-too-large";
            case 415 -> "unsupported-media-type";
            case 429 -> "rate-limited";
            case 503 -> "unavailable";
            default -> status.is5xxServerError() ? "internal-error" : "http-" + status.value();
        };
    }
}
