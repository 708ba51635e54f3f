package dev.iotpipeline.web.validation;

import dev.iotpipeline.web.problem.Problems;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * The one way requests are validated: plain checks on the request records, in the class that turns a request into
 * what the service stores (no Bean Validation on the device path, where every microsecond counts, and one style
 * everywhere else), each refusing with an RFC 9457 problem that names the field.
 */
public final class Fields {

    /** Channels and device types: lowercase, digits and dashes, up to 64 characters. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    /** Device ids: letters, digits and {@code . _ : -}, up to 128 characters, as network servers name devices. */
    public static final Pattern DEVICE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private Fields() {}

    public static boolean isName(String value) {
        return value != null && NAME.matcher(value).matches();
    }

    /** Whether {@code value} matches {@link #DEVICE_ID}, checked without a matcher: the device path asks per uplink. */
    public static boolean isDeviceId(String value) {
        if (value == null || value.isEmpty() || value.length() > 128 || !isLetterOrDigit(value.charAt(0))) {
            return false;
        }
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** A 400 {@code invalid-field} problem whose detail is {@code field: problem} and whose {@code field} names it. */
    public static ErrorResponseException invalid(String field, String problem) {
        return invalid("invalid-field", field, field + ": " + problem);
    }

    /**
     * A 400 problem of one of the documented types ({@code missing-field}, {@code invalid-hex}, {@code invalid-name},
     * …) whose {@code field} names what it is about.
     */
    public static ErrorResponseException invalid(String type, String field, String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, type, detail, Map.of("field", field));
    }

    /** Refuses a text longer than {@code max} characters; null passes (absence is the caller's to judge). */
    public static void requireMaxLength(String field, String value, int max) {
        if (value != null && value.length() > max) {
            throw invalid(field, "is " + value.length() + " characters long; at most " + max);
        }
    }
}
