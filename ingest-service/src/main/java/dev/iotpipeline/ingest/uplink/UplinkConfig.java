package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.circuit.KafkaCircuit;
import dev.iotpipeline.ingest.devicetype.DeviceTypeCatalog;
import dev.iotpipeline.ingest.metrics.IngestMetrics;
import dev.iotpipeline.ingest.ratelimit.DeviceRateLimiter;
import dev.iotpipeline.ingest.registry.DeviceRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.kafka.tracing.KafkaTracingConfiguration;
import dev.iotpipeline.kafka.tracing.TraceStart;
import dev.iotpipeline.web.limits.HttpLimits;
import dev.iotpipeline.web.problem.ProblemWriter;
import dev.iotpipeline.web.security.CredentialStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

@Configuration(proxyBeanMethods = false)
@Import(KafkaTracingConfiguration.class)
class UplinkConfig {

    @Bean
    UplinkFactory uplinkFactory(DeviceTypeCatalog catalog, IngestProperties properties) {
        return new UplinkFactory(catalog::isKnown, properties.limits().maxPayloadBytes(), Clock.systemUTC());
    }

    @Bean
    RequestItems requestItems(IngestProperties properties) {
        return new RequestItems(properties.limits().maxBatchSize());
    }

    @Bean
    UplinkPublisher uplinkPublisher(
            KafkaTemplate<String, Object> kafka,
            KafkaCircuit circuit,
            IngestProperties properties,
            IngestMetrics metrics,
            ObjectProvider<Tracer> tracer,
            ObjectProvider<Propagator> propagator) {
        var k = properties.kafka();
        return new UplinkPublisher(
                kafka,
                circuit,
                k.sendTimeout(),
                k.retryAfter(),
                k.maxInFlight(),
                k.sendNowBelow(),
                k.sendNowFrom(),
                k.sendNowBelowRate(),
                metrics,
                new TraceStart(tracer.getIfUnique(), propagator.getIfUnique(), "uplink"));
    }

    @Bean
    UplinkIntake uplinkIntake(
            UplinkPublisher publisher, DeviceRateLimiter rateLimiter, IngestMetrics metrics, DeviceRegistry registry) {
        return new UplinkIntake(publisher, rateLimiter, metrics, registry);
    }

    @Bean
    DeviceUplinks deviceUplinks(
            UplinkFactory factory,
            RequestItems items,
            UplinkIntake intake,
            IngestMetrics metrics,
            IngestProperties properties) {
        return new DeviceUplinks(
                factory, items, intake, metrics, properties.webhooks().deviceTypes());
    }

    /** First of all filters: what it answers never reaches the observation, security or MVC layers. */
    @Bean
    @ConditionalOnBooleanProperty(name = "ingest.device-path.lean", matchIfMissing = true)
    FilterRegistrationBean<LeanDevicePath> leanDevicePath(
            DeviceUplinks uplinks,
            CredentialStore credentials,
            ProblemWriter problems,
            JsonMapper json,
            HttpLimits limits,
            MeterRegistry meters,
            ObjectProvider<Tracer> tracer,
            ObjectProvider<Propagator> propagator,
            Rehearsal rehearsal) {
        var registration = new FilterRegistrationBean<>(new LeanDevicePath(
                uplinks,
                credentials,
                problems,
                json,
                limits.maxBodySize().toBytes(),
                meters,
                tracer.getIfUnique(),
                propagator.getIfUnique(),
                rehearsal));
        registration.addUrlPatterns(LeanDevicePath.PREFIX + "*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    Rehearsal rehearsal() {
        return new Rehearsal();
    }

    /** Only with the lean path: the full chain would refuse the warm-up's requests, which carry no credential. */
    @Bean
    @ConditionalOnBooleanProperty(name = "ingest.device-path.lean", matchIfMissing = true)
    IngestWarmup ingestWarmup(
            Environment environment,
            Rehearsal rehearsal,
            KafkaTemplate<String, Object> kafka,
            KafkaAdmin admin,
            KafkaCircuit circuit,
            IngestProperties properties) {
        return new IngestWarmup(
                () -> environment.getRequiredProperty("local.server.port", Integer.class),
                rehearsal,
                kafka,
                () -> Admin.create(admin.getConfigurationProperties()),
                circuit,
                properties.kafka().replicationFactor(),
                properties.devicePath().warmupBurst());
    }

    @Bean
    DeviceRateLimiter deviceRateLimiter(IngestProperties properties) {
        return new DeviceRateLimiter(properties.rateLimit());
    }

    /** Once a minute, the buckets of credentials that stopped sending are dropped (they refilled: nothing is lost). */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService rateLimitSweep(DeviceRateLimiter limiter) {
        var sweep = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("rate-limit-sweep").daemon().factory());
        sweep.scheduleWithFixedDelay(limiter::forgetIdle, 1, 1, TimeUnit.MINUTES);
        return sweep;
    }

    /** The topics ingest owns, created when missing, so the service also starts against a bare broker. */
    @Bean
    KafkaAdmin.NewTopics ingestTopics(IngestProperties properties, KafkaAdmin admin) {
        var k = properties.kafka();
        return TopicDeclarations.owned(
                admin,
                PipelineTopic.Owner.INGEST,
                k.partitions(),
                k.replicationFactor(),
                Map.of(PipelineTopic.UPLINKS_ENCODED, k.retention()));
    }

    @Bean
    OpenAPI ingestOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("iot-pipeline ingest API")
                        .version("1")
                        .description("Device-facing ingestion; errors are RFC 9457 application/problem+json."))
                .components(new Components()
                        .addSecuritySchemes(
                                "deviceKey",
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("Device key bound to a channel")));
    }
}
