package dev.iotpipeline.localstack;

import dev.iotpipeline.decoder.DecoderApplication;
import dev.iotpipeline.ingest.IngestApplication;
import dev.iotpipeline.notify.NotifyApplication;
import dev.iotpipeline.rules.RulesApplication;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;

/** The four services, in the order a stack starts them: decoder first, ingest last. */
public enum Service {
    // Decoder first: it registers the built-in device types that ingest learns at startup.
    DECODER("decoder-service", "decoder", DecoderApplication::application),
    RULES("rules-service", "rules", RulesApplication::application),
    NOTIFY("notify-service", "notify", NotifyApplication::application),
    // Ingest last, so nothing is accepted before the rest of the pipeline is there.
    INGEST("ingest-service", "ingest", IngestApplication::application);

    private final String module;
    private final String shortName;
    private final Supplier<SpringApplication> application;

    Service(String module, String shortName, Supplier<SpringApplication> application) {
        this.module = module;
        this.shortName = shortName;
        this.application = application;
    }

    /** The Maven module, which is also the exec jar's name and spring.application.name. */
    public String module() {
        return module;
    }

    /** The name used in commands and property prefixes: ingest, decoder, rules, notify. */
    public String shortName() {
        return shortName;
    }

    SpringApplication application() {
        return application.get();
    }

    public static Service named(String name) {
        for (var service : values()) {
            if (service.shortName.equals(name) || service.module.equals(name)) {
                return service;
            }
        }
        throw new IllegalArgumentException("no service '" + name + "': one of ingest, decoder, rules, notify");
    }
}
