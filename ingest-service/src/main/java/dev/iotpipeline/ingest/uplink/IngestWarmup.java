package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import dev.iotpipeline.web.warmup.HttpHead;
import dev.iotpipeline.web.warmup.Warmup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Ingest's hot path before readiness: device uplinks POSTed to its own port over kept-alive connections and over a
 * new connection each round (a fleet connects as much as it posts), single and batched, through Tomcat, the lean
 * path, JSON parsing, validation, the producer with acks=all and the answer, and once a burst of new connections at
 * once; a {@link Rehearsal}, so the uplinks go to a topic of the warm-up's own, deleted when it ends, and nothing
 * reaches uplinks.encoded or the metrics. Plain HTTP/1.1 on sockets, so that the time goes to the server's side
 * rather than a client's.
 */
final class IngestWarmup implements Warmup, AutoCloseable {

    /** Connections kept alive, each with a request in flight per round. */
    private static final int CONNECTIONS = 8;

    /**
     * The round that opens the burst of new connections: early enough that the warm-up's later collections promote
     * what they leave before readiness, late enough that the path is compiled.
     */
    static final int BURST_ROUND = 40;

    private static final String UPLINK =
            "{\"deviceId\":\"warmup-%d\",\"payloadHex\":\"01755C03673401046865\",\"fPort\":85}";

    private final IntSupplier port;
    private final Rehearsal rehearsal;
    private final KafkaOperations<String, Object> kafka;
    private final Supplier<Admin> admins;
    private final KafkaCircuit circuit;
    private final short replicationFactor;
    private final int burst;
    private final List<Socket> kept = new ArrayList<>();
    /** The circuit's stall watch held from round 0 to the warm-up's close; null outside. */
    private KafkaCircuit.WarmupHold hold;
    /** From the rehearsal topic's creation to its deletion; null while there is no topic. */
    private RehearsalTopic topic;

    /**
     * @param admins an admin client for the rehearsal topic's creation and deletion, closed with the warm-up
     * @param circuit whose probe connects before the first rehearsed uplink, and whose stall watch waits for the
     *     warm-up to end
     * @param replicationFactor uplinks.encoded's, so that acks=all waits for the same replicas
     * @param burst new connections opened at once in one round, a request on each: what a fleet does to an instance
     *     that just (re)started. Tomcat keeps the request processors and socket buffers they leave (~85 KB a
     *     connection) for the connections after, so the fleet's first burst reuses them rather than allocating them
     *     all in its first second, where their first collection copied 35-47 MB and paused the instance 57-301 ms
     *     (docs/benchmarks/raw/experiments/settle-ab.md, burst-warmup.md)
     */
    IngestWarmup(
            IntSupplier port,
            Rehearsal rehearsal,
            KafkaOperations<String, Object> kafka,
            Supplier<Admin> admins,
            KafkaCircuit circuit,
            short replicationFactor,
            int burst) {
        this.port = port;
        this.rehearsal = rehearsal;
        this.kafka = kafka;
        this.admins = admins;
        this.circuit = circuit;
        this.replicationFactor = replicationFactor;
        this.burst = burst;
    }

    @Override
    public String name() {
        return "ingest POST";
    }

    @Override
    public void exercise(int round) throws Exception {
        if (round == 0) {
            hold = circuit.warmingUp();
            createTopic();
            for (int i = 0; i < CONNECTIONS; i++) {
                kept.add(connect());
            }
        }
        // Every tenth round's requests are batches of ten, as network servers and gateways send them.
        for (int i = 0; i < kept.size(); i++) {
            send(kept.get(i), body(round, i));
        }
        for (int i = 0; i < kept.size(); i++) {
            // Tomcat ends a connection after its max-keep-alive-requests (100), as it would a device's.
            if (expectAccepted(kept.get(i).getInputStream())) {
                kept.get(i).close();
                kept.set(i, connect());
            }
        }
        try (var fresh = connect()) {
            send(fresh, body(round, CONNECTIONS));
            expectAccepted(fresh.getInputStream());
        }
        if (round == BURST_ROUND && burst > 0) {
            burst(round);
        }
    }

    private void burst(int round) throws IOException {
        var sockets = new ArrayList<Socket>(burst);
        try {
            for (int i = 0; i < burst; i++) {
                sockets.add(connect());
            }
            // Connected first and then sent in one go, so the requests are in flight together, each holding a
            // processor, as a fleet's first requests are; sent as they connect, they would share a few.
            for (int i = 0; i < burst; i++) {
                send(sockets.get(i), UPLINK.formatted((round + i) % 1000));
            }
            for (var socket : sockets) {
                expectAccepted(socket.getInputStream());
            }
        } finally {
            for (var socket : sockets) {
                socket.close();
            }
        }
    }

    /** As many partitions as uplinks.encoded. */
    private void createTopic() throws Exception {
        int partitions =
                kafka.partitionsFor(PipelineTopic.UPLINKS_ENCODED.topicName()).size();
        topic = RehearsalTopic.create(
                rehearsal.topic(), partitions, replicationFactor, admins.get(), kafka::partitionsFor);
    }

    private Socket connect() throws IOException {
        var socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(5000);
        socket.connect(new InetSocketAddress("127.0.0.1", port.getAsInt()), 2000);
        return socket;
    }

    private static String body(int round, int connection) {
        int n = round * (CONNECTIONS + 1) + connection;
        if (round % 10 != 9) {
            return UPLINK.formatted(n % 1000);
        }
        var items = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
            items.append(i == 0 ? "" : ",").append(UPLINK.formatted((n + i) % 1000));
        }
        return items.append(']').toString();
    }

    private void send(Socket socket, String json) throws IOException {
        var body = json.getBytes(StandardCharsets.UTF_8);
        var head = ("POST /sensor-data/warmup/encoded/em300th HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nAccept: application/json\r\n" + Rehearsal.HEADER + ": "
                        + rehearsal.secret() + "\r\nAuthorization: Bearer " + rehearsal.secret()
                        + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        OutputStream out = socket.getOutputStream();
        out.write(head);
        out.write(body);
        out.flush();
    }

    /**
     * Reads one response: its head up to the blank line, then Content-Length bytes of body; true if the server
     * closes the connection after it.
     */
    private static boolean expectAccepted(InputStream in) throws IOException {
        var text = HttpHead.read(in);
        if (!text.startsWith("HTTP/1.1 202")) {
            throw new IllegalStateException("a rehearsed uplink was answered "
                    + text.lines().findFirst().orElse(""));
        }
        int length = 0;
        boolean closes = false;
        for (var line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
            closes |= line.equalsIgnoreCase("Connection: close");
        }
        in.readNBytes(length);
        return closes;
    }

    @Override
    public void close() throws Exception {
        for (var socket : kept) {
            socket.close();
        }
        kept.clear();
        try {
            if (topic != null) {
                var created = topic;
                topic = null;
                created.close();
            }
        } finally {
            if (hold != null) {
                hold.close();
                hold = null;
            }
        }
    }
}
