package dev.iotpipeline.decoder;

import dev.iotpipeline.web.PipelineWebConfiguration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Decodes encoded uplinks into data units and dead-letters what it cannot decode. */
@SpringBootApplication(excludeName = PipelineWebConfiguration.UNUSED_AUTO_CONFIGURATION)
@ConfigurationPropertiesScan
@Import(PipelineWebConfiguration.class)
public class DecoderApplication {

    /** Each service reads its own config file name so that several can share one JVM in the local stack. */
    public static SpringApplication application() {
        var app = new SpringApplication(DecoderApplication.class);
        app.setDefaultProperties(Map.of("spring.config.name", "decoder-service"));
        return app;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
