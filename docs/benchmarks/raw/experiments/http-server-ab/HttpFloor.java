import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Ingest's device path without the pipeline around it, served by embedded Tomcat on virtual threads (as ingest is)
 * or by Reactor Netty (what Spring WebFlux runs on): read a JSON uplink, write an event to Kafka with ingest's
 * producer settings, answer 202 with a JSON body once acked. The same work in both, so the CPU per request of this
 * process differs only by the HTTP server and how a request waits for its ack.
 *
 * <p>java -cp CP HttpFloor.java tomcat|netty PORT BOOTSTRAP TOPIC
 */
public class HttpFloor {

    record Uplink(String deviceId, String payloadHex, Integer fPort) {}

    record Event(
            UUID id,
            String channel,
            String deviceId,
            String deviceType,
            String payloadHex,
            Integer fPort,
            Instant receivedAt,
            String source,
            Map<String, String> network) {}

    record Answer(UUID id, Instant receivedAt) {}

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String KEY = "Bearer demo-device-key";
    static final Map<String, String> NETWORK = Map.of("gateway", "none", "region", "EU868");

    static KafkaProducer<String, byte[]> producer;
    static String topic;

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        String bootstrap = args[2];
        topic = args[3];
        try (var admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
        } catch (ExecutionException alreadyThere) {
            // a second run on the same stack
        }
        var props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, "67108864");
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        producer.partitionsFor(topic);
        switch (mode) {
            case "tomcat" -> tomcat(port);
            case "netty" -> netty(port);
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("READY " + mode + " " + port);
        Thread.currentThread().join();
    }

    /** The uplink's event, sent; completes with the 202's body once Kafka acked it. */
    static CompletableFuture<byte[]> accept(String channel, String deviceType, byte[] body) {
        var uplink = JSON.readValue(body, Uplink.class);
        var event = new Event(
                UUID.randomUUID(),
                channel,
                uplink.deviceId(),
                deviceType,
                uplink.payloadHex(),
                uplink.fPort(),
                Instant.now(),
                "http",
                NETWORK);
        var acked = new CompletableFuture<byte[]>();
        producer.send(new ProducerRecord<>(topic, uplink.deviceId(), JSON.writeValueAsBytes(event)), (md, e) -> {
            if (e != null) {
                acked.completeExceptionally(e);
            } else {
                acked.complete(JSON.writeValueAsBytes(new Answer(event.id(), event.receivedAt())));
            }
        });
        return acked;
    }

    static final String[][] HEADERS = {
        {"X-Content-Type-Options", "nosniff"},
        {"X-XSS-Protection", "0"},
        {"Cache-Control", "no-cache, no-store, max-age=0, must-revalidate"},
        {"Pragma", "no-cache"},
        {"Expires", "0"},
        {"X-Frame-Options", "DENY"}
    };

    static void tomcat(int port) throws Exception {
        var tomcat = new Tomcat();
        var base = Files.createTempDirectory("httpfloor");
        tomcat.setBaseDir(base.toString());
        var connector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        connector.setPort(port);
        var protocol = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
        protocol.setMaxKeepAliveRequests(-1);
        // What Spring Boot does with spring.threads.virtual.enabled (TomcatVirtualThreadsWebServerFactoryCustomizer).
        protocol.setExecutor(new VirtualThreadExecutor("tomcat-handler-"));
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        var context = tomcat.addContext("", base.toString());
        Tomcat.addServlet(context, "uplinks", new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                var parts = request.getRequestURI().split("/");
                if (parts.length != 5 || !KEY.equals(request.getHeader("Authorization"))) {
                    response.setStatus(401);
                    return;
                }
                var body = request.getInputStream().readNBytes((int) request.getContentLengthLong());
                byte[] answer;
                try {
                    answer = accept(parts[2], parts[4], body).get();
                } catch (InterruptedException | ExecutionException e) {
                    response.setStatus(503);
                    return;
                }
                response.setStatus(202);
                for (var header : HEADERS) {
                    response.setHeader(header[0], header[1]);
                }
                response.setContentType("application/json");
                response.setContentLength(answer.length);
                response.getOutputStream().write(answer);
            }
        });
        context.addServletMappingDecoded("/*", "uplinks");
        tomcat.start();
    }

    static void netty(int port) {
        HttpServer.create()
                .port(port)
                .route(routes -> routes.post("/sensor-data/{channel}/encoded/{type}", (request, response) -> {
                    if (!KEY.equals(request.requestHeaders().get("Authorization"))) {
                        return response.status(401).send();
                    }
                    String channel = request.param("channel");
                    String type = request.param("type");
                    return request.receive()
                            .aggregate()
                            .asByteArray()
                            .flatMap(body -> Mono.fromFuture(accept(channel, type, body)))
                            .flatMap(answer -> {
                                response.status(202);
                                for (var header : HEADERS) {
                                    response.header(header[0], header[1]);
                                }
                                response.header("Content-Type", "application/json");
                                response.header("Content-Length", Integer.toString(answer.length));
                                return response.sendByteArray(Mono.just(answer)).then();
                            });
                }))
                .bindNow();
    }
}
