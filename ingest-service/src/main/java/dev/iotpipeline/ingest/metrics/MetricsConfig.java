package dev.iotpipeline.ingest.metrics;

import dev.iotpipeline.ingest.problem.ProblemWriter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class MetricsConfig {

    @Bean
    IngestMetrics ingestMetrics(MeterRegistry registry) {
        return new IngestMetrics(registry);
    }

    @Bean
    ProblemWriter problemWriter(IngestMetrics metrics) {
        return new ProblemWriter(metrics);
    }
}
