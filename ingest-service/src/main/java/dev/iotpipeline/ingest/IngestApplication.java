package dev.iotpipeline.ingest;

import dev.iotpipeline.web.PipelineWebConfiguration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Accepts uplinks over HTTP and makes them durable in Kafka before answering 202. */
@SpringBootApplication(excludeName = PipelineWebConfiguration.UNUSED_AUTO_CONFIGURATION)
@ConfigurationPropertiesScan
@Import(PipelineWebConfiguration.class)
public class IngestApplication {

    /** Each service reads its own config file name so that several can share one JVM in the local stack. */
    public static SpringApplication application() {
        var app = new SpringApplication(IngestApplication.class);
        app.setDefaultProperties(Map.of("spring.config.name", "ingest-service"));
        return app;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
