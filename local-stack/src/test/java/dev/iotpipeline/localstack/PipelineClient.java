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

    private final LocalStack stack;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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

    HttpResponse<String> put(String url, String json) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET());
    }

    HttpResponse<String> createRule(String json) {
        return post(stack.rulesUrl() + "/rules", Map.of("Content-Type", "application/json"), json);
    }

    HttpResponse<String> getHistory(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(stack.notifyUrl() + pathAndQuery))
                .header("Authorization", "Bearer " + DASHBOARD_TOKEN).GET());
    }

    long storedCount(String channel) {
        var response = getHistory("/data-units/count?channel=" + channel);
        return response.statusCode() == 200 ? json(response.body()).get("count").asLong() : -1;
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

    /** Opens a dashboard WebSocket that collects every message it receives. */
    Dashboard dashboard() {
        var dashboard = new Dashboard();
        dashboard.socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + DASHBOARD_TOKEN)
                .buildAsync(URI.create(stack.notifyWebSocketUrl()), dashboard)
                .join();
        return dashboard;
    }

    /** A WebSocket client that keeps what it receives. */
    static final class Dashboard implements WebSocket.Listener, AutoCloseable {

        final List<JsonNode> messages = new CopyOnWriteArrayList<>();
        private final StringBuilder partial = new StringBuilder();
        private WebSocket socket;

        void send(String json) {
            socket.sendText(json, true).join();
        }

        List<JsonNode> ofType(String type) {
            return messages.stream().filter(m -> type.equals(m.path("type").asString())).toList();
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                messages.add(json(partial.toString()));
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").exceptionally(t -> null).join();
        }
    }
}
