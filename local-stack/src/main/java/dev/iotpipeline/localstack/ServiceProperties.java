package dev.iotpipeline.localstack;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything a service instance is started with ("name=value"), whether it shares the local stack's JVM with the
 * others or runs as a process of its own from its exec jar: one definition for both.
 */
final class ServiceProperties {

    // The services share one classpath here, so each must opt out of what only another one uses.
    private static final String JDBC = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
            + "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration";
    private static final String EXCLUDE = "spring.autoconfigure.exclude=";

    private ServiceProperties() {}

    static List<String> of(
            Service service, LocalStack.Settings settings, Infrastructure infrastructure, int port, boolean sharedJvm) {
        var properties = new ArrayList<String>();
        properties.add("server.port=" + port);
        properties.add("spring.kafka.bootstrap-servers=" + infrastructure.bootstrapServers());
        properties.add("spring.main.banner-mode=off");
        // Every Kafka client logs its whole configuration and each rebalance step at INFO: thousands of lines
        // that would bury the stack's banner. Warnings and errors still show.
        properties.add("logging.level.org.apache.kafka=WARN");
        if (sharedJvm) {
            // The services share one logging system here, which would label every line with one name.
            properties.add("logging.include-application-name=false");
        }
        properties.add(service.shortName() + ".kafka.partitions=" + settings.partitions());
        if (sharedJvm) {
            // The services share one classpath here, so each must opt out of what only another one uses.
            if (service != Service.NOTIFY) {
                properties.add(EXCLUDE + JDBC);
            }
            // The services share one JVM's compilers here: each waiting for them in turn put READY at 17.7-21.0 s
            // against 15.6 without, with no cold figure better beyond the runs' spread
            // (docs/benchmarks/raw/experiments/compiler-settle.md).
            properties.add("iot.warmup.settle-max-time=0");
            // One heap: the last service to start collects what every warm-up left, once.
            if (service != Service.values()[Service.values().length - 1]) {
                properties.add("iot.warmup.collect=false");
            }
        }
        // Every service knows the three credentials of the local stack; each accepts only the roles its routes
        // name. The demo device key serves load tests too, so its rate limit is far above what one machine sends.
        properties.add("iot.security.admin-tokens[0]=" + settings.adminToken());
        properties.add("iot.security.dashboard-tokens[0].token=" + settings.dashboardToken());
        properties.add("iot.security.dashboard-tokens[0].channels[0]=*");
        properties.add("iot.security.device-keys[0].channel=*");
        properties.add("iot.security.device-keys[0].key=" + settings.deviceKey());
        properties.add("iot.security.device-keys[0].rate-per-second=1000000");
        switch (service) {
            case RULES -> {
                properties.add("spring.kafka.streams.state-dir="
                        + settings.dataDir()
                                .toAbsolutePath()
                                .resolve(sharedJvm ? "rules-streams" : "rules-streams-" + port));
                properties.add("spring.kafka.streams.replication-factor=1");
            }
            case NOTIFY -> {
                properties.add("spring.datasource.url=" + infrastructure.jdbcUrl());
                properties.add("spring.datasource.username=" + infrastructure.jdbcUser());
                properties.add("spring.datasource.password=" + infrastructure.jdbcPassword());
            }
            case INGEST, DECODER -> {}
        }
        properties.addAll(settings.properties());
        return properties;
    }
}
