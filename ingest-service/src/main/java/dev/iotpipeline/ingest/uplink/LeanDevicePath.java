package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.web.problem.JsonProblems;
import dev.iotpipeline.web.problem.ProblemWriter;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.BearerSecurity;
import dev.iotpipeline.web.security.Credential;
import dev.iotpipeline.web.security.CredentialStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The device endpoints answered before Spring Security's filter chain, Spring MVC's dispatch and the per-request
 * observation, which together cost a device uplink three times what ingest's own work does
 * (docs/benchmarks/cpu-per-uplink.md). It takes only what it can answer exactly as the full path would: a POST to a
 * device route with plain path segments, a JSON body of a declared length within the body limit, an {@code Accept}
 * that takes JSON, and a device key of the channel in the path, checked against the same {@link CredentialStore}.
 * Anything else (no or a wrong credential, another content type, a chunked body) goes down the full chain, which
 * answers it as before; so the statuses, problem types and credential matrix stay those of the one security layer.
 */
final class LeanDevicePath implements Filter {

    private static final Logger log = LoggerFactory.getLogger(LeanDevicePath.class);

    static final String PREFIX = "/sensor-data/";
    private static final String TRACEPARENT = "traceparent";

    /** The device routes, each with the URI template the {@code http.server.requests} timer is tagged with. */
    enum Route {
        ENCODED("/sensor-data/{channel}/encoded/{deviceType}"),
        DECODED("/sensor-data/{channel}/decoded"),
        TTS("/sensor-data/{channel}/webhooks/tts"),
        TTS_TYPED("/sensor-data/{channel}/webhooks/tts/{deviceType}"),
        CHIRPSTACK("/sensor-data/{channel}/webhooks/chirpstack"),
        CHIRPSTACK_TYPED("/sensor-data/{channel}/webhooks/chirpstack/{deviceType}");

        final String template;

        Route(String template) {
            this.template = template;
        }
    }

    /** A matched request path: the route, the channel and the device type (null where the route has none). */
    record Match(Route route, String channel, String deviceType) {

        /**
         * The route of a raw request URI, or null: also for a segment that is empty, only dots, or holds anything
         * but unreserved characters (percent-encoding, path parameters), which the full path decodes its own way.
         */
        static Match of(String uri) {
            if (uri == null || !uri.startsWith(PREFIX)) {
                return null;
            }
            var parts = uri.substring(PREFIX.length()).split("/", -1);
            for (var part : parts) {
                if (!plain(part)) {
                    return null;
                }
            }
            return switch (parts.length) {
                case 2 -> parts[1].equals("decoded") ? new Match(Route.DECODED, parts[0], null) : null;
                case 3 ->
                    switch (parts[1]) {
                        case "encoded" -> new Match(Route.ENCODED, parts[0], parts[2]);
                        case "webhooks" ->
                            parts[2].equals("tts")
                                    ? new Match(Route.TTS, parts[0], null)
                                    : parts[2].equals("chirpstack")
                                            ? new Match(Route.CHIRPSTACK, parts[0], null)
                                            : null;
                        default -> null;
                    };
                case 4 ->
                    !parts[1].equals("webhooks")
                            ? null
                            : parts[2].equals("tts")
                                    ? new Match(Route.TTS_TYPED, parts[0], parts[3])
                                    : parts[2].equals("chirpstack")
                                            ? new Match(Route.CHIRPSTACK_TYPED, parts[0], parts[3])
                                            : null;
                default -> null;
            };
        }

        private static boolean plain(String segment) {
            boolean dotsOnly = true;
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (!(c >= 'a' && c <= 'z'
                        || c >= 'A' && c <= 'Z'
                        || c >= '0' && c <= '9'
                        || c == '-'
                        || c == '_'
                        || c == '.'
                        || c == '~')) {
                    return false;
                }
                dotsOnly &= c == '.';
            }
            return !segment.isEmpty() && !dotsOnly;
        }
    }

    private final DeviceUplinks uplinks;
    private final CredentialStore credentials;
    private final ProblemWriter problems;
    private final JsonMapper json;
    private final long maxBodyBytes;
    private final MeterRegistry meters;
    private final Tracer tracer;
    private final Propagator propagator;
    private final Rehearsal rehearsal;
    private final ConcurrentHashMap<Integer, Timer> timers = new ConcurrentHashMap<>();

    /**
     * {@code tracer} and {@code propagator} may be null (no tracing): a caller's trace is then not continued.
     * Requests of the {@code rehearsal} (the warm-up's) are written to its own topic instead of uplinks.encoded,
     * without being counted.
     */
    LeanDevicePath(
            DeviceUplinks uplinks,
            CredentialStore credentials,
            ProblemWriter problems,
            JsonMapper json,
            long maxBodyBytes,
            MeterRegistry meters,
            Tracer tracer,
            Propagator propagator,
            Rehearsal rehearsal) {
        this.uplinks = uplinks;
        this.credentials = credentials;
        this.problems = problems;
        this.json = json;
        this.maxBodyBytes = maxBodyBytes;
        this.meters = meters;
        this.tracer = tracer;
        this.propagator = propagator;
        this.rehearsal = rehearsal;
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        if (!(servletRequest instanceof HttpServletRequest request)
                || !(servletResponse instanceof HttpServletResponse response)) {
            chain.doFilter(servletRequest, servletResponse);
            return;
        }
        var match = "POST".equals(request.getMethod()) ? Match.of(request.getRequestURI()) : null;
        if (match != null
                && match.route() == Route.ENCODED
                && request.getContentLengthLong() >= 0
                && request.getContentLengthLong() <= maxBodyBytes
                && rehearsal.matches(request)) {
            rehearse(request, response, match);
            return;
        }
        var device = match == null ? null : device(request, match);
        if (device == null) {
            chain.doFilter(request, response);
            return;
        }
        long started = System.nanoTime();
        String exception = "none";
        securityHeaders(response);
        Span span = serverSpan(request, match);
        try (var scope = span == null ? null : tracer.withSpan(span)) {
            answer(request, response, match, device);
        } catch (ErrorResponseException refused) {
            problems.write(response, request.getRequestURI(), refused);
        } catch (RuntimeException e) {
            var incident = UUID.randomUUID();
            log.error("Unexpected error {} on POST {}", incident, request.getRequestURI(), e);
            exception = e.getClass().getSimpleName();
            problems.write(response, request.getRequestURI(), Problems.unexpected(incident));
        } finally {
            if (span != null) {
                span.end();
            }
            timer(match.route(), response.getStatus(), exception)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The device key of a request this path can answer exactly as the full chain would, or null to leave it to the
     * chain: JSON in and out, a declared length within the limit, and a device key valid for the path's channel.
     */
    private Credential.Device device(HttpServletRequest request, Match match) {
        long length = request.getContentLengthLong();
        if (length < 0 || length > maxBodyBytes || !json(request.getContentType()) || !acceptsJson(request)) {
            return null;
        }
        var secret = BearerSecurity.bearerSecret(request.getHeader(HttpHeaders.AUTHORIZATION));
        return secret != null
                        && credentials.authenticate(secret).orElse(null) instanceof Credential.Device device
                        && device.allows(match.channel())
                ? device
                : null;
    }

    private void answer(HttpServletRequest request, HttpServletResponse response, Match match, Credential.Device device)
            throws IOException {
        byte[] body;
        try {
            body = request.getInputStream().readNBytes((int) request.getContentLengthLong());
        } catch (IOException e) {
            problems.write(response, request.getRequestURI(), JsonProblems.describe(e));
            return;
        }
        var key = request.getHeader(UplinkController.IDEMPOTENCY_KEY);
        var answer = switch (match.route()) {
            case ENCODED -> uplinks.encoded(match.channel(), match.deviceType(), body, key, device);
            case DECODED -> uplinks.decoded(match.channel(), body, key, device);
            case TTS, TTS_TYPED -> uplinks.theThingsStack(match.channel(), match.deviceType(), body, device);
            case CHIRPSTACK, CHIRPSTACK_TYPED ->
                uplinks.chirpStack(match.channel(), match.deviceType(), request.getParameter("event"), body, device);
        };
        write(response, answer);
    }

    private void write(HttpServletResponse response, DeviceUplinks.Answer answer) throws IOException {
        response.setStatus(answer.status().value());
        if (answer.body() != null) {
            var bytes = json.writeValueAsBytes(answer.body());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }

    private void rehearse(HttpServletRequest request, HttpServletResponse response, Match match) throws IOException {
        // The credential check a device's request gets, on the warm-up's own secret, which no credential has: its
        // answer is not needed, the check's code is (a SHA-256 and the registry's lookup, compiled before readiness
        // rather than in a restarted instance's first second under its fleet).
        device(request, match);
        securityHeaders(response);
        try {
            var body = request.getInputStream().readNBytes((int) request.getContentLengthLong());
            write(response, uplinks.rehearseEncoded(match.channel(), match.deviceType(), body, rehearsal.topic()));
        } catch (ErrorResponseException refused) {
            problems.write(response, request.getRequestURI(), refused);
        }
    }

    /** Continues a caller's trace, as the HTTP server observation would; without a traceparent the send starts one. */
    private Span serverSpan(HttpServletRequest request, Match match) {
        if (tracer == null || propagator == null || request.getHeader(TRACEPARENT) == null) {
            return null;
        }
        return propagator
                .extract(request, HttpServletRequest::getHeader)
                .name("http post " + match.route().template)
                .kind(Span.Kind.SERVER)
                .start();
    }

    /** The headers Spring Security's chain writes on every answer it lets through. */
    private static void securityHeaders(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-XSS-Protection", "0");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate");
        response.setHeader(HttpHeaders.PRAGMA, "no-cache");
        response.setHeader(HttpHeaders.EXPIRES, "0");
        response.setHeader("X-Frame-Options", "DENY");
    }

    /** {@code application/json}, with or without parameters: what the routes' {@code consumes} accepts. */
    static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        return (end < 0 ? contentType : contentType.substring(0, end))
                .trim()
                .equalsIgnoreCase(MediaType.APPLICATION_JSON_VALUE);
    }

    /** No {@code Accept}, or one naming JSON or a wildcard; anything else the full path answers (406). */
    static boolean acceptsJson(HttpServletRequest request) {
        var accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return true;
        }
        var lower = accept.toLowerCase(Locale.ROOT);
        return lower.contains("*/*") || lower.contains("application/*") || lower.contains("application/json");
    }

    /** The same meter the HTTP server observation records, with its tags; one per route, status and exception. */
    private Timer timer(Route route, int status, String exception) {
        if (!"none".equals(exception)) {
            return newTimer(route, status, exception);
        }
        return timers.computeIfAbsent(route.ordinal() * 1000 + status, key -> newTimer(route, status, exception));
    }

    private Timer newTimer(Route route, int status, String exception) {
        var series = HttpStatus.Series.resolve(status);
        var outcome = series == null
                ? "UNKNOWN"
                : switch (series) {
                    case INFORMATIONAL -> "INFORMATIONAL";
                    case SUCCESSFUL -> "SUCCESS";
                    case REDIRECTION -> "REDIRECTION";
                    case CLIENT_ERROR -> "CLIENT_ERROR";
                    case SERVER_ERROR -> "SERVER_ERROR";
                };
        return Timer.builder("http.server.requests")
                .tag("method", "POST")
                .tag("uri", route.template)
                .tag("status", Integer.toString(status))
                .tag("outcome", outcome)
                .tag("exception", exception)
                .tag("error", exception)
                .register(meters);
    }
}
