package dev.iotpipeline.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapping every service uses for events on Kafka, so producers and consumers agree byte for byte. */
public final class EventJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();

    private EventJson() {
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static byte[] write(Object event) {
        return MAPPER.writeValueAsBytes(event);
    }

    /** Throws {@link tools.jackson.core.JacksonException} on malformed input; callers decide what a poison pill means. */
    public static <T> T read(byte[] json, Class<T> type) {
        return MAPPER.readValue(json, type);
    }
}
