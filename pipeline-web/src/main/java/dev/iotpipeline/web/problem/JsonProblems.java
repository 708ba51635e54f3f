package dev.iotpipeline.web.problem;

import dev.iotpipeline.web.limits.BodyTooLargeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** Turns a JSON reading failure into a problem a client can act on, without Jackson's Java type names. */
public final class JsonProblems {

    private JsonProblems() {}

    /**
     * What was wrong with a body, as precisely as the parser knows it: 413 when it passed the size limit,
     * otherwise a 400 naming the field and what was expected, or the syntax error and its position.
     */
    public static ProblemDetail describe(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return Problems.detail(HttpStatus.CONTENT_TOO_LARGE, "request-too-large", tooLarge.getMessage());
            }
            if (cause instanceof StreamConstraintsException limits) {
                return Problems.detail(
                        HttpStatus.BAD_REQUEST,
                        "json-limits",
                        "The JSON exceeds a limit: " + withoutApiNames(limits.getOriginalMessage()));
            }
            if (cause instanceof UnrecognizedPropertyException unknown) {
                return field(path(unknown), "is not a known field");
            }
            if (cause instanceof InvalidFormatException invalid) {
                return field(path(invalid), "'" + invalid.getValue() + "' is not " + expected(invalid.getTargetType()));
            }
            if (cause instanceof MismatchedInputException mismatch) {
                var got = got(mismatch.getCurrentToken());
                return field(
                        path(mismatch),
                        "expected " + expected(mismatch.getTargetType()) + (got == null ? "" : ", got " + got));
            }
            if (cause instanceof StreamReadException syntax) {
                var problem = Problems.detail(
                        HttpStatus.BAD_REQUEST,
                        "malformed-json",
                        "The body is not valid JSON: "
                                + syntax.getOriginalMessage()
                                        .lines()
                                        .findFirst()
                                        .orElse(""));
                if (syntax.getLocation() != null && syntax.getLocation().getLineNr() > 0) {
                    problem.setProperty("line", syntax.getLocation().getLineNr());
                    problem.setProperty("column", syntax.getLocation().getColumnNr());
                }
                return problem;
            }
            if (cause instanceof JacksonException other) {
                return field(
                        path(other),
                        other.getOriginalMessage().lines().findFirst().orElse("is not valid"));
            }
        }
        return Problems.detail(
                HttpStatus.BAD_REQUEST,
                "malformed-json",
                ex.getMessage() != null && ex.getMessage().startsWith("Required request body is missing")
                        ? "A JSON body is required"
                        : "The body could not be read as JSON for this endpoint");
    }

    /** Jackson names the Java method behind a limit; a client needs only the number. */
    static String withoutApiNames(String message) {
        return message.lines().findFirst().orElse("").replaceAll(", from `[^`]*`", "");
    }

    private static ProblemDetail field(String field, String problem) {
        var detail = Problems.detail(
                HttpStatus.BAD_REQUEST, "invalid-field", (field.isEmpty() ? "body" : field) + ": " + problem);
        detail.setProperty("field", field.isEmpty() ? "body" : field);
        return detail;
    }

    private static String path(JacksonException e) {
        var path = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    public static String expected(Class<?> type) {
        if (type == null) {
            return "a value of another type";
        }
        if (type.isEnum()) {
            return "one of "
                    + Arrays.stream(type.getEnumConstants())
                            .map(Object::toString)
                            .collect(Collectors.joining(", "));
        }
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Instant.class) {
            return "an ISO-8601 instant such as 2026-01-31T12:00:00Z";
        }
        if (type == Duration.class) {
            return "an ISO-8601 duration such as PT30S";
        }
        if (type == UUID.class) {
            return "a UUID";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return "a value of another type";
    }

    private static String got(JsonToken token) {
        if (token == null) {
            return null;
        }
        return switch (token) {
            case START_OBJECT, END_OBJECT, PROPERTY_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> null;
        };
    }
}
