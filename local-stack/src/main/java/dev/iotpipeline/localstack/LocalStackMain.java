package dev.iotpipeline.localstack;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The "run" command: starts the whole pipeline on this machine and keeps it running until Ctrl-C.
 * Settings come from environment variables so the same command works in scripts and CI.
 */
public final class LocalStackMain {

    private LocalStackMain() {
    }

    public static void main(String[] args) throws Exception {
        var dataDir = Path.of(env("IOT_DATA_DIR", "data")).toAbsolutePath();
        var settings = new LocalStack.Settings(dataDir,
                new LocalStack.Ports(port("IOT_INGEST_PORT", 8080), port("IOT_DECODER_PORT", 8081),
                        port("IOT_RULES_PORT", 8082), port("IOT_NOTIFY_PORT", 8083)),
                env("IOT_DEVICE_KEY", "demo-device-key"), env("IOT_DASHBOARD_TOKEN", "demo-dashboard-token"),
                port("IOT_PARTITIONS", 3));
        int kafkaPort = port("IOT_KAFKA_PORT", 9092);
        var started = System.nanoTime();
        var stack = LocalStack.startEmbedded(settings, kafkaPort, port("IOT_KAFKA_CONTROLLER_PORT", kafkaPort + 1),
                port("IOT_POSTGRES_PORT", 5433));
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping the pipeline...");
            try {
                stack.close();
            } catch (Exception e) {
                e.printStackTrace();
            }
            stopped.countDown();
        }, "local-stack-shutdown"));
        System.out.printf("""

                iot-pipeline is running (started in %.1f s). Data: %s

                  ingest   %s   POST /sensor-data/{channel}/encoded/{deviceType}
                  decoder  %s   GET  /device-types
                  rules    %s   GET|POST /rules
                  notify   %s   GET  /data-units, WebSocket %s
                  kafka    %s
                  postgres %s

                  device key       %s   (Authorization: Bearer <key>, any channel)
                  dashboard token  %s   (Authorization: Bearer <token>, all channels)

                Try:
                  curl -i -X POST %s/sensor-data/demo/encoded/em300th \\
                    -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\
                    -d '{"deviceId":"em300-1","payloadHex":"01755C03673401046865"}'

                Ctrl-C stops everything.
                READY
                %n""", (System.nanoTime() - started) / 1e9, dataDir, stack.ingestUrl(), stack.decoderUrl(),
                stack.rulesUrl(), stack.notifyUrl(), stack.notifyWebSocketUrl(), stack.bootstrapServers(),
                stack.infrastructure().jdbcUrl(), settings.deviceKey(), settings.dashboardToken(), stack.ingestUrl(),
                settings.deviceKey());
        stopped.await();
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static int port(String name, int fallback) {
        return Integer.parseInt(env(name, Integer.toString(fallback)));
    }
}
