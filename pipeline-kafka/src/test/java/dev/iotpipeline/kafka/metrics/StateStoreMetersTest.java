package dev.iotpipeline.kafka.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateStoreMetersTest {

    private static final String METER = "kafka.stream.state.put.latency.max";

    @Test
    void theRocksDbStoresMetersAreExportedAndTheInMemoryStoresAreLeftOut() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new StateStoreMeters());
        List<Meter.Id> refused = new ArrayList<>();
        registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(id));

        // The tags Streams gives an in-memory global store and a RocksDB store, as Micrometer's binder names them.
        gauge(registry, Tags.of("in.memory.state.id", "rules", "task.id", "-1_0"));
        gauge(registry, Tags.of("rocksdb.state.id", "alarm-state", "task.id", "1_1"));

        assertThat(refused).isEmpty();
        assertThat(registry.scrape())
                .contains("rocksdb_state_id=\"alarm-state\"")
                .doesNotContain("in_memory_state_id");
    }

    @Test
    void withoutTheFilterPrometheusRefusesTheSecondStoreType() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        List<Meter.Id> refused = new ArrayList<>();
        registry.config().onMeterRegistrationFailed((id, reason) -> refused.add(id));

        gauge(registry, Tags.of("in.memory.state.id", "rules", "task.id", "-1_0"));
        gauge(registry, Tags.of("rocksdb.state.id", "alarm-state", "task.id", "1_1"));

        assertThat(refused).hasSize(1);
    }

    @Test
    void leavesOtherMetersAlone() {
        var filter = new StateStoreMeters();
        var id = new Meter.Id("jvm.memory.used", Tags.of("rocksdb.state.id", "x"), null, null, Meter.Type.GAUGE);
        var thread =
                new Meter.Id("kafka.stream.thread.poll.rate", Tags.of("thread.id", "t"), null, null, Meter.Type.GAUGE);

        assertThat(filter.map(id)).isSameAs(id);
        assertThat(filter.map(thread)).isSameAs(thread);
    }

    private static void gauge(PrometheusMeterRegistry registry, Tags tags) {
        Gauge.builder(METER, () -> 1.0).tags(tags).register(registry);
    }
}
