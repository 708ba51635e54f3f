package dev.iotpipeline.localstack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The workload an AOT cache is trained on: the device, dashboard and admin paths a user's traffic takes, run
 * against a throwaway stack by {@code ./pipeline aot} for at least {@code IOT_AOT_TRAINING_SECONDS} (default 60)
 * and then until every service's JIT compilers are quiet, at most {@code IOT_AOT_TRAINING_MAX_SECONDS} (300): the
 * request paths must reach C2 in the training for a start to repeat that while it warms up, and how long that takes
 * depends on the machine (60 s of traffic did it on one, left every service compiling on a slower one).
 *
 * <p>It runs as the stack's {@code --then} command, so the URLs and credentials come from the launcher's
 * environment. It fails (exit 1) when the stack did not accept or deliver the traffic, because a cache trained
 * on error paths would warm the wrong code.
 */
public final class AotTraining {

    private static final String CHANNEL = "aot-training";

    /** How often the compilers are looked at, and the window they must have been quiet over. */
    private static final Duration WINDOW = Duration.ofSeconds(10);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong accepted = new AtomicLong();
    /** Refused requests by the status they got: a failed training says which, so its cause can be looked up. */
    private final Map<Integer, AtomicLong> refused = new ConcurrentSkipListMap<>();

    private final AtomicLong delivered = new AtomicLong();
    private volatile boolean stop;

    private AotTraining() {}

    public static void main(String[] args) throws Exception {
        var least = Duration.ofSeconds(Integer.parseInt(env("IOT_AOT_TRAINING_SECONDS", "60")));
        var most = Duration.ofSeconds(Integer.parseInt(env("IOT_AOT_TRAINING_MAX_SECONDS", "300")));
        System.exit(new AotTraining().run(least, most.compareTo(least) < 0 ? least : most) ? 0 : 1);
    }

    private boolean run(Duration least, Duration most) throws Exception {
        var socket = subscribe();
        send(env("RULES_URL") + "/rules", env("ADMIN_TOKEN"), """
                {"name":"aot-training-hot","filter":{"channel":"%s"},"condition":"temperature > 30",\
                "clearCondition":"temperature < 25","severity":"MAJOR"}""".formatted(CHANNEL));
        String trained;
        try (var workers = Executors.newVirtualThreadPerTaskExecutor()) {
            var tasks = new ArrayList<Future<?>>();
            for (int worker = 0; worker < 8; worker++) {
                int id = worker;
                tasks.add(workers.submit(() -> {
                    for (long round = 0; !stop; round++) {
                        post(id, round);
                    }
                    return null;
                }));
            }
            try {
                trained = untilCompilersQuiet(least, most, tasks);
            } finally {
                stop = true;
            }
            for (var task : tasks) {
                task.get();
            }
        }
        for (int page = 0; page < 50; page++) {
            get(env("NOTIFY_URL") + "/data-units?channel=" + CHANNEL + "&limit=100", env("DASHBOARD_TOKEN"));
            get(env("NOTIFY_URL") + "/data-units/count?channel=" + CHANNEL, env("DASHBOARD_TOKEN"));
            get(env("RULES_URL") + "/rules", env("ADMIN_TOKEN"));
        }
        var waitUntil = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (delivered.get() < accepted.get() && System.nanoTime() < waitUntil) {
            Thread.sleep(200);
        }
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "trained").join();
        System.out.printf(
                "AOT training: %d uplinks accepted, %d requests refused%s, %d messages delivered over WebSocket; %s%n",
                accepted.get(),
                refusedCount(),
                refused.isEmpty() ? "" : " (by status: " + refused + ")",
                delivered.get(),
                trained);
        return accepted.get() > 0 && refused.isEmpty() && delivered.get() >= accepted.get();
    }

    private long refusedCount() {
        return refused.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /**
     * Waits while the workers post: at least {@code least}, then until the services' compilers were quiet over a
     * whole window, or {@code most}. Returns how the training ended, for the log.
     */
    private String untilCompilersQuiet(Duration least, Duration most, List<Future<?>> workers) throws Exception {
        var services = new LinkedHashMap<String, String>();
        for (var service : List.of("ingest", "decoder", "rules", "notify")) {
            services.put(service, env(service.toUpperCase(Locale.ROOT) + "_URL"));
        }
        var compilers = new CompilerActivity(http, services);
        long start = System.nanoTime();
        var before = compilers.sample();
        while (true) {
            Thread.sleep(WINDOW);
            for (var worker : workers) {
                if (worker.isDone()) {
                    return "a worker stopped";
                }
            }
            var after = compilers.sample();
            var elapsed = Duration.ofNanos(System.nanoTime() - start);
            var busy = compilers.busy(before, after, WINDOW);
            if (elapsed.compareTo(least) >= 0 && busy.isEmpty()) {
                return "%d s of traffic, until the services' compilers were quiet".formatted(elapsed.toSeconds());
            }
            if (elapsed.compareTo(most) >= 0) {
                return "%d s of traffic, the bound (still compiling: %s)".formatted(elapsed.toSeconds(), busy);
            }
            before = after;
        }
    }

    /** One request in a worker's mix: mostly single encoded uplinks, as devices post, and some of each other kind. */
    private void post(int worker, long round) throws Exception {
        var random = ThreadLocalRandom.current();
        var device = "aot-" + worker + "-" + (round % 50);
        var ingest = env("INGEST_URL") + "/sensor-data/" + CHANNEL;
        var key = env("DEVICE_KEY");
        switch ((int) (round % 10)) {
            case 0 -> {
                var batch = new StringBuilder("[");
                for (int i = 0; i < 20; i++) {
                    batch.append(i == 0 ? "" : ",").append(encoded(device + "-" + i, random));
                }
                count(send(ingest + "/encoded/em300th", key, batch.append(']').toString()), 20);
            }
            case 1 ->
                count(
                        send(ingest + "/decoded", key, """
                    {"deviceId":"%s","measurements":{"moisture":%.1f,"temperature":%d},"attributes":{"firmware":"2.1"}}\
                    """.formatted(
                                        device, random.nextDouble(10, 40), random.nextInt(15, 35))),
                        1);
            default -> count(send(ingest + "/encoded/em300th", key, encoded(device, random)), 1);
        }
    }

    private static String encoded(String device, ThreadLocalRandom random) {
        // EM300-TH: battery %, temperature in 0.1 °C (little-endian), humidity in 0.5 %; hot often enough to alarm.
        int temperature = random.nextInt(150, 350);
        var hex = HexFormat.of();
        var payload = "0175" + hex.toHexDigits((byte) random.nextInt(20, 100)) + "0367"
                + hex.toHexDigits((byte) temperature) + hex.toHexDigits((byte) (temperature >> 8)) + "0468"
                + hex.toHexDigits((byte) random.nextInt(40, 180));
        return "{\"deviceId\":\"" + device + "\",\"payloadHex\":\"" + payload + "\"}";
    }

    private void count(int status, int uplinks) {
        if (status == 202) {
            accepted.addAndGet(uplinks);
        } else {
            refused.computeIfAbsent(status, any -> new AtomicLong()).incrementAndGet();
        }
    }

    private int send(String url, String token, String body) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private void get(String url, String token) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        http.send(request, HttpResponse.BodyHandlers.discarding());
    }

    /** A dashboard's session: data units and alarms of the training channel, counted as they arrive. */
    private WebSocket subscribe() {
        var confirmed = new CompletableFuture<Void>();
        var socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + env("DASHBOARD_TOKEN"))
                .buildAsync(URI.create(env("WS_URL")), new WebSocket.Listener() {
                    private final StringBuilder message = new StringBuilder();
                    private int subscriptions;

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        message.append(data);
                        if (last) {
                            var text = message.toString();
                            message.setLength(0);
                            if (text.startsWith("{\"type\":\"data-unit\"")) {
                                delivered.incrementAndGet();
                            } else if (text.contains("\"subscribed\"") && ++subscriptions == 2) {
                                confirmed.complete(null);
                            }
                        }
                        webSocket.request(1);
                        return null;
                    }
                })
                .join();
        for (var stream : List.of("data-units", "alarms")) {
            socket.sendText(
                            "{\"type\":\"subscribe\",\"id\":\"" + stream + "\",\"stream\":\"" + stream
                                    + "\",\"filter\":{\"channel\":\"" + CHANNEL + "\"}}",
                            true)
                    .join();
        }
        confirmed.orTimeout(30, TimeUnit.SECONDS).join();
        return socket;
    }

    private static String env(String name) {
        var value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run this as the stack's --then command");
        }
        return value;
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
