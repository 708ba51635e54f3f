package dev.iotpipeline.kafka.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

/**
 * Keeps only the RocksDB stores' Kafka Streams state-store meters: Streams tags each store's metrics by its type
 * ({@code rocksdb-state-id}, {@code in-memory-state-id}, ...), Prometheus refuses a second meter of one name with
 * other tag keys, and whichever type registered first (the global in-memory rules store) would otherwise crowd out
 * the persistent stores' meters with a warning. Renaming the tag instead makes Micrometer's Kafka binder, which
 * compares the tags it would register with those it finds, register every store meter again at each refresh.
 */
public final class StateStoreMeters implements MeterFilter {

    /** The tag key of a RocksDB key-value store's meters, as Micrometer's binder names it. */
    private static final String ROCKSDB = "rocksdb.state.id";

    private static final String PREFIX = "kafka.stream.";
    private static final String TYPED_SUFFIX = ".state.id";

    @Override
    public MeterFilterReply accept(Meter.Id id) {
        if (!id.getName().startsWith(PREFIX)) {
            return MeterFilterReply.NEUTRAL;
        }
        for (Tag tag : id.getTagsAsIterable()) {
            if (tag.getKey().endsWith(TYPED_SUFFIX) && !tag.getKey().equals(ROCKSDB)) {
                return MeterFilterReply.DENY;
            }
        }
        return MeterFilterReply.NEUTRAL;
    }
}
