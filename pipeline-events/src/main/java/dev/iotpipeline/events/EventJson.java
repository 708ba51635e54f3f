package dev.iotpipeline.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/** The JSON mapping every service uses for events on Kafka, so producers and consumers agree byte for byte. */
public final class EventJson {

    /**
     * Bounds for every JSON document this project reads, from Kafka or HTTP: far above any real event or
     * request, far below what would let one document exhaust the stack or the heap.
     */
    public static final StreamReadConstraints READ_LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(64)
            .maxStringLength(1 << 20)
            .maxNumberLength(100)
            .maxNameLength(1024)
            .build();

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(READ_LIMITS)
                    .recyclerPool(new PerThreadRecyclerPool())
                    .build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .addModule(new SimpleModule("utc-instants")
                    .addDeserializer(Instant.class, new UtcInstantDeserializer())
                    .addSerializer(Instant.class, new UtcInstantSerializer()))
            .addModule(new SimpleModule("spreading-creators") {
                @Override
                public void setupModule(SetupContext context) {
                    super.setupModule(context);
                    context.addValueInstantiators(new SpreadingCreators());
                }
            })
            .build();

    /** Readers and writers bound to one type find their (de)serializer once, not on every call. */
    private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return MAPPER.readerFor(type);
        }
    };

    private static final ClassValue<ObjectWriter> WRITERS = new ClassValue<>() {
        @Override
        protected ObjectWriter computeValue(Class<?> type) {
            return MAPPER.writerFor(type);
        }
    };

    private EventJson() {}

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static byte[] write(Object event) {
        return event == null
                ? MAPPER.writeValueAsBytes(null)
                : WRITERS.get(event.getClass()).writeValueAsBytes(event);
    }

    /** The text an instant is written as in every event ({@link Instant#toString}'s). */
    public static String instantText(Instant instant) {
        var text = new char[UtcInstantSerializer.LONGEST];
        int length = UtcInstantSerializer.format(instant, text);
        return length < 0 ? instant.toString() : new String(text, 0, length);
    }

    /** Throws {@link tools.jackson.core.JacksonException} on malformed input; callers decide what a poison pill means. */
    public static <T> T read(byte[] json, Class<T> type) {
        return READERS.get(type).readValue(json);
    }
}
