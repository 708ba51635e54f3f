package dev.iotpipeline.web;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.web.limits.BodyLimitFilter;
import dev.iotpipeline.web.limits.HttpLimits;
import dev.iotpipeline.web.problem.ProblemAdvice;
import dev.iotpipeline.web.problem.ProblemErrorController;
import dev.iotpipeline.web.problem.ProblemErrorReportValve;
import dev.iotpipeline.web.problem.ProblemWriter;
import dev.iotpipeline.web.problem.RejectionCounter;
import dev.iotpipeline.web.security.BearerSecurity;
import dev.iotpipeline.web.warmup.Warmup;
import dev.iotpipeline.web.warmup.WarmupProperties;
import dev.iotpipeline.web.warmup.WarmupRunner;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP edge of a service, imported by each application class: bearer security in three roles, problems
 * for every error, and limits on bodies and JSON. The service adds only a {@code ServiceRoutes} bean.
 */
@Configuration(proxyBeanMethods = false)
@Import(BearerSecurity.class)
@EnableConfigurationProperties({HttpLimits.class, WarmupProperties.class})
public class PipelineWebConfiguration {

    /**
     * Auto-configuration every service leaves out ({@code @SpringBootApplication(excludeName = ...)}): Micrometer's
     * logback binder puts a turbo filter in front of every log call, enabled or not, one per service in a shared JVM
     * (the Kafka clients' debug checks ran them all): about 1 % of the stack's CPU under load, for a meter nothing
     * reads.
     */
    public static final String UNUSED_AUTO_CONFIGURATION =
            "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration";

    /** Before Spring Security's chain (order -100), so an oversized body costs no authentication either. */
    private static final int BODY_LIMIT_ORDER = -200;

    /** The service's warm-up before it reports ready: whatever {@link Warmup} beans it declares. */
    @Bean
    WarmupRunner warmupRunner(ObjectProvider<Warmup> warmups, WarmupProperties properties) {
        return new WarmupRunner(warmups.orderedStream().toList(), properties);
    }

    /** The MVC mapper, with Spring Boot's settings but reading with the project's JSON limits. */
    @Bean
    @Primary
    JsonMapper jsonMapper(ObjectProvider<JsonMapperBuilderCustomizer> customizers) {
        var builder = JsonMapper.builder(JsonFactory.builder()
                .streamReadConstraints(EventJson.READ_LIMITS)
                .build());
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    @Bean
    ProblemWriter problemWriter(JsonMapper json, ObjectProvider<RejectionCounter> rejections) {
        return new ProblemWriter(json, rejections.getIfAvailable(() -> RejectionCounter.NONE));
    }

    @Bean
    ProblemAdvice problemAdvice(ObjectProvider<RejectionCounter> rejections) {
        return new ProblemAdvice(rejections.getIfAvailable(() -> RejectionCounter.NONE));
    }

    @Bean
    ProblemErrorController problemErrorController(ObjectProvider<RejectionCounter> rejections) {
        return new ProblemErrorController(rejections.getIfAvailable(() -> RejectionCounter.NONE));
    }

    /** Requests Tomcat refuses itself get a problem too, from the host's error report valve. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    @Bean
    FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(HttpLimits limits, ProblemWriter problems) {
        var registration = new FilterRegistrationBean<>(new BodyLimitFilter(limits, problems));
        registration.setOrder(BODY_LIMIT_ORDER);
        return registration;
    }
}
