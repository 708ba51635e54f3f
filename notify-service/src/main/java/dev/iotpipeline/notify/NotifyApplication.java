package dev.iotpipeline.notify;

import dev.iotpipeline.web.PipelineWebConfiguration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Delivers data units and alarms to WebSocket subscribers and keeps their queryable history in PostgreSQL. */
@SpringBootApplication(excludeName = PipelineWebConfiguration.UNUSED_AUTO_CONFIGURATION)
@ConfigurationPropertiesScan
@Import(PipelineWebConfiguration.class)
public class NotifyApplication {

    /** Each service reads its own config file name so that several can share one JVM in the local stack. */
    public static SpringApplication application() {
        var app = new SpringApplication(NotifyApplication.class);
        app.setDefaultProperties(Map.of("spring.config.name", "notify-service"));
        return app;
    }

    public static void main(String[] args) {
        application().run(args);
    }
}
