package dev.iotpipeline.kafka.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;

/**
 * Names a Kafka Streams state store's tag {@code state.id} whatever the store's type: Streams tags each store
 * metric {@code <type>-state-id} (in-memory, rocksdb, ...), and Prometheus refuses a second meter of one name with
 * other tag keys, so a service with two kinds of store would otherwise export one kind and log a warning.
 */
public final class StateStoreTags implements MeterFilter {

    public static final String STATE_ID = "state.id";

    private static final String PREFIX = "kafka.stream.";
    private static final String TYPED_SUFFIX = ".state.id";

    @Override
    public Meter.Id map(Meter.Id id) {
        if (!id.getName().startsWith(PREFIX)) {
            return id;
        }
        var tags = new ArrayList<Tag>();
        boolean renamed = false;
        for (Tag tag : id.getTagsAsIterable()) {
            if (tag.getKey().endsWith(TYPED_SUFFIX)) {
                tags.add(Tag.of(STATE_ID, tag.getValue()));
                renamed = true;
            } else {
                tags.add(tag);
            }
        }
        return renamed ? id.replaceTags(tags) : id;
    }
}
