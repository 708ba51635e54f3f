package dev.iotpipeline.localstack;

import dev.iotpipeline.events.EventJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;

/** What a device, an operator and a dashboard do against a running stack, over real HTTP and WebSocket. */
final class PipelineClient {

    static final String DEVICE_KEY = "it-device-key";
    static final String DASHBOARD_TOKEN = "it-dashboard-token";
    static final String ADMIN_TOKEN = "it-admin-token";
    static final Map<String, String> ADMIN = Map.of("Authorization", "Bearer " + ADMIN_TOKEN);

    private final LocalStack stack;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    PipelineClient(LocalStack stack) {
        this.stack = stack;
    }

    HttpResponse<String> postUplink(String channel, String deviceType, String json) {
        return postIngest("/sensor-data/" + channel + "/encoded/" + deviceType, DEVICE_KEY, json);
    }

    /** POSTs JSON to an ingest path with a device key. */
    HttpResponse<String> postIngest(String path, String key, String json, String... headers) {
        var request = HttpRequest.newBuilder(URI.create(stack.ingestUrl() + path))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return send(request);
    }

    HttpResponse<String> post(String url, Map<String, String> headers, String body) {
        var request = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request);
    }

    /** An operator's change: with the admin token. */
    HttpResponse<String> put(String url, String json) {
        return send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** An operator's read: with the admin token (health and metrics need none, and ignore it). */
    HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .GET());
    }

    HttpResponse<String> createRule(String json) {
        return post(
                stack.rulesUrl() + "/rules",
                Map.of("Content-Type", "application/json", "Authorization", "Bearer " + ADMIN_TOKEN),
                json);
    }

    HttpResponse<String> getHistory(String pathAndQuery) {
        return getHistory(pathAndQuery, DASHBOARD_TOKEN);
    }

    HttpResponse<String> getHistory(String pathAndQuery, String token) {
        return send(HttpRequest.newBuilder(URI.create(stack.notifyUrl() + pathAndQuery))
                .header("Authorization", "Bearer " + token)
                .GET());
    }

    long storedCount(String channel) {
        var response = getHistory("/data-units/count?channel=" + channel);
        return response.statusCode() == 200 ? json(response.body()).get("count").asLong() : -1;
    }

    /** The sum of notify-service's Prometheus samples whose whole line matches {@code line}. */
    double notifyMetric(java.util.regex.Pattern line) {
        return metric(stack.notifyUrl(), line);
    }

    /** The sum of ingest-service's Prometheus samples whose whole line matches {@code line}. */
    double ingestMetric(java.util.regex.Pattern line) {
        return metric(stack.ingestUrl(), line);
    }

    private double metric(String serviceUrl, java.util.regex.Pattern line) {
        return get(serviceUrl + "/actuator/prometheus")
                .body()
                .lines()
                .filter(l -> line.matcher(l).matches())
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** The sum of notify-service's Prometheus samples whose line starts with {@code prefix}. */
    double notifyMetric(String prefix) {
        return notifyMetric(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(prefix) + ".*"));
    }

    static JsonNode json(String body) {
        return EventJson.mapper().readTree(body);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** POSTs a batch of uplink objects to one channel and device type. */
    HttpResponse<String> postBatch(String channel, String deviceType, List<String> items) {
        return postUplink(channel, deviceType, "[" + String.join(",", items) + "]");
    }

    /** Opens a dashboard WebSocket that collects every message it receives. */
    Dashboard dashboard() {
        return dashboard(DASHBOARD_TOKEN);
    }

    /** Opens a dashboard WebSocket with {@code token} in the Authorization header; fails if refused. */
    Dashboard dashboard(String token) {
        return open(new Dashboard(true), b -> b.header("Authorization", "Bearer " + token));
    }

    /** Opens a dashboard WebSocket the way browsers authenticate: the token as a subprotocol after "bearer". */
    Dashboard browserDashboard(String token) {
        return open(new Dashboard(true), b -> b.subprotocols("bearer", token));
    }

    /** Opens a dashboard WebSocket that never reads anything, not even pings: a stuck client. */
    Dashboard stuckDashboard() {
        return open(new Dashboard(false), b -> b.header("Authorization", "Bearer " + DASHBOARD_TOKEN));
    }

    private Dashboard open(Dashboard dashboard, java.util.function.UnaryOperator<WebSocket.Builder> auth) {
        dashboard.socket = auth.apply(http.newWebSocketBuilder())
                .buildAsync(URI.create(stack.notifyWebSocketUrl()), dashboard)
                .join();
        return dashboard;
    }

    /** A WebSocket client that keeps what it receives. */
    static final class Dashboard implements WebSocket.Listener, AutoCloseable {

        final List<JsonNode> messages = new CopyOnWriteArrayList<>();
        /** When each message arrived, by index, in epoch milliseconds. */
        final List<Long> arrivals = new CopyOnWriteArrayList<>();

        final java.util.concurrent.atomic.AtomicInteger pings = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.CompletableFuture<Integer> closed = new java.util.concurrent.CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        private final boolean reads;
        private WebSocket socket;

        Dashboard(boolean reads) {
            this.reads = reads;
        }

        void send(String json) {
            socket.sendText(json, true).join();
        }

        String subprotocol() {
            return socket.getSubprotocol();
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            if (reads) {
                webSocket.request(1);
            }
        }

        @Override
        public CompletionStage<?> onPing(WebSocket webSocket, java.nio.ByteBuffer message) {
            pings.incrementAndGet();
            return WebSocket.Listener.super.onPing(webSocket, message);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }

        List<JsonNode> ofType(String type) {
            return messages.stream()
                    .filter(m -> type.equals(m.path("type").asString()))
                    .toList();
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                arrivals.add(System.currentTimeMillis());
                messages.add(json(partial.toString()));
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye")
                    .exceptionally(t -> null)
                    .join();
        }
    }
}
