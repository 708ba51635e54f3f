package dev.iotpipeline.rules;

import dev.iotpipeline.web.PipelineWebConfiguration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Keeps the rule registry and evaluates rules on the data-unit stream, raising and clearing alarms. */
@SpringBootApplication(excludeName = PipelineWebConfiguration.UNUSED_AUTO_CONFIGURATION)
@ConfigurationPropertiesScan
@Import(PipelineWebConfiguration.class)
public class RulesApplication {

    /** Each service reads its own config file name so that several can share one JVM in the local stack. */
    public static SpringApplication application() {
        var app = new SpringApplication(RulesApplication.class);
        app.setDefaultProperties(Map.of("spring.config.name", "rules-service"));
        return app;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
