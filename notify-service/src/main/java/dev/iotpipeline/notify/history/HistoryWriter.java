package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Writes data units and alarms to PostgreSQL in batches. Offsets are committed after the listener returns,
 * so only once the batch is durable; a database error is thrown and the batch retried.
 */
class HistoryWriter {

    private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);

    private final HistoryStore store;

    HistoryWriter(HistoryStore store) {
        this.store = store;
    }

    @KafkaListener(id = "notify-store", batch = "true", topics = {
            "#{T(dev.iotpipeline.events.PipelineTopic).DATA_UNITS.topicName()}",
            "#{T(dev.iotpipeline.events.PipelineTopic).ALARMS.topicName()}"})
    void onBatch(List<ConsumerRecord<String, byte[]>> records) {
        var units = new ArrayList<HistoryStore.Stored<DataUnit>>();
        var alarms = new ArrayList<HistoryStore.Stored<AlarmEvent>>();
        for (var record : records) {
            try {
                if (record.topic().equals(PipelineTopic.DATA_UNITS.topicName())) {
                    units.add(new HistoryStore.Stored<>(EventJson.read(record.value(), DataUnit.class), json(record)));
                } else {
                    alarms.add(new HistoryStore.Stored<>(EventJson.read(record.value(), AlarmEvent.class), json(record)));
                }
            } catch (RuntimeException e) {
                // A record that is not an event can never be stored; retrying it would block the partition.
                log.warn("Not storing {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.toString());
            }
        }
        store.storeDataUnits(units);
        store.storeAlarms(alarms);
    }

    private static String json(ConsumerRecord<String, byte[]> record) {
        return new String(record.value(), StandardCharsets.UTF_8);
    }
}
