package dev.iotpipeline.localstack;

import dev.iotpipeline.events.Ids;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Devices that each send em300th uplinks in a closed loop at a steady rate, the way gateways do. Every other
 * device names its uplinks' ids and retries an uplink under the same client id until it gets its 202; every 4th
 * uplink of such a device is hot (35 °C), the rest cool (20 °C), so a "temperature > 30" rule raises and clears one
 * alarm per hot uplink. The others name no id, so ingest mints one per try, and send only cool uplinks: a try that
 * was stored but not answered adds a data unit no 202 counts, and no alarm. With
 * {@link #withConflictingRetries()}, every {@value #CONFLICT_EVERY}th uplink, once accepted, is followed by a
 * conflicting retry: the same client id with another battery reading (still cool, so no alarm changes), which must
 * end as a dead letter of its own.
 */
final class SteadyLoad implements AutoCloseable {

    /** One answer the load got: when, how long it took, and its status (0 = no answer: refused, timed out). */
    record Answer(long atNanos, long latencyNanos, int status) {}

    /** A 202 with the client's view of the uplink. */
    record Sent(InvariantChecker.Accepted accepted, boolean hot, long atNanos) {}

    private static final String HOT = "01755C03675E01046865";
    private static final String COOL = "01755C0367C800046865";
    /** COOL with battery 91 % instead of 92 %. */
    private static final String COOL_CONFLICTING = "01755B0367C800046865";

    static final int CONFLICT_EVERY = 10;

    private final String ingestUrl;
    private final String key;
    private final String channel;
    private final int devices;
    private final Duration interval;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    private final ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private boolean conflictingRetries;

    SteadyLoad(String ingestUrl, String key, String channel, int devices, int uplinksPerSecond) {
        this.ingestUrl = ingestUrl;
        this.key = key;
        this.channel = channel;
        this.devices = devices;
        this.interval = Duration.ofNanos(1_000_000_000L * devices / uplinksPerSecond);
    }

    /** Follows every {@value #CONFLICT_EVERY}th uplink with a conflicting retry of its client id. */
    SteadyLoad withConflictingRetries() {
        conflictingRetries = true;
        return this;
    }

    SteadyLoad start() {
        for (int d = 0; d < devices; d++) {
            var deviceId = channel + "-" + d;
            // Every other device names no id, as most devices do: ingest mints one, and the store writer copies
            // those units without looking them up, so a kill mid-write must still leave each stored once.
            boolean keyed = d % 2 == 0;
            threads.add(Thread.ofVirtual().name("load-" + deviceId).start(() -> device(deviceId, keyed)));
        }
        return this;
    }

    /** {@code keyed}: each uplink names its id, so a retry is the same uplink; else each try is a new one. */
    private void device(String deviceId, boolean keyed) {
        long seq = 0;
        while (running.get()) {
            long cycle = System.nanoTime();
            boolean hot = keyed && seq % 4 == 3;
            var id = keyed ? Ids.newId() : null;
            UUID accepted = null;
            while (running.get() && (accepted = send(deviceId, id, hot ? HOT : COOL, seq, false)) == null) {
                pause(Duration.ofMillis(100));
            }
            if (keyed && conflictingRetries && accepted != null && seq % CONFLICT_EVERY == CONFLICT_EVERY / 2 && !hot) {
                send(deviceId, id, COOL_CONFLICTING, seq, true);
            }
            seq++;
            long left = interval.toNanos() - (System.nanoTime() - cycle);
            if (left > 0) {
                pause(Duration.ofNanos(left));
            }
        }
    }

    /**
     * The pipeline's id for the uplink when it was answered 202 (the client id scoped to the device, or the one
     * ingest minted when {@code id} is null), else null.
     */
    private UUID send(String deviceId, UUID id, String payloadHex, long seq, boolean conflicting) {
        var body = id == null
                ? "{\"deviceId\":\"%s\",\"payloadHex\":\"%s\"}".formatted(deviceId, payloadHex)
                : "{\"deviceId\":\"%s\",\"payloadHex\":\"%s\",\"id\":\"%s\"}".formatted(deviceId, payloadHex, id);
        var request = HttpRequest.newBuilder(URI.create(ingestUrl + "/sensor-data/" + channel + "/encoded/em300th"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long started = System.nanoTime();
        int status;
        UUID accepted = null;
        try {
            var response = http.send(request, HttpResponse.BodyHandlers.ofString());
            status = response.statusCode();
            if (status == 202) {
                accepted = UUID.fromString(
                        PipelineClient.json(response.body()).get("id").asString());
            }
        } catch (Exception e) {
            status = 0;
        }
        long now = System.nanoTime();
        answers.add(new Answer(now, now - started, status));
        if (accepted != null) {
            sent.add(new Sent(
                    new InvariantChecker.Accepted(accepted, deviceId, seq, conflicting), payloadHex.equals(HOT), now));
        }
        return accepted;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many conflicting retries were answered 202. */
    long conflictingRetries() {
        return sent.stream().filter(s -> s.accepted().conflicting()).count();
    }

    /** Every 202 so far, in the order they were answered. */
    List<Sent> sent() {
        return List.copyOf(sent);
    }

    List<Sent> sentBetween(long fromNanos, long toNanos) {
        return sent.stream()
                .filter(s -> s.atNanos() >= fromNanos && s.atNanos() < toNanos)
                .toList();
    }

    /** The 202s between two times that were each a new uplink (no conflicting retry), one per id. */
    List<Sent> newUplinksBetween(long fromNanos, long toNanos) {
        return sentBetween(fromNanos, toNanos).stream()
                .filter(s -> !s.accepted().conflicting())
                .toList();
    }

    List<Answer> answersBetween(long fromNanos, long toNanos) {
        return answers.stream()
                .filter(a -> a.atNanos() >= fromNanos && a.atNanos() < toNanos)
                .toList();
    }

    /** The newest 202 of a new uplink (not a conflicting retry) answered after {@code afterNanos}, if any. */
    java.util.Optional<Sent> latestAfter(long afterNanos) {
        Sent latest = null;
        for (var s : sent) {
            if (s.atNanos() > afterNanos && !s.accepted().conflicting()) {
                latest = s;
            }
        }
        return java.util.Optional.ofNullable(latest);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (var thread : threads) {
            thread.join(Duration.ofSeconds(15));
        }
    }
}
