package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH benchmarks of ingest's per-request work before Kafka: one uplink body parsed and validated into its event, and that event serialised. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IngestJmh {

    UplinkFactory factory;
    RequestItems items;
    /** {@code POST /sensor-data/irrigation/encoded/em300th}: an EM300-TH frame as hex, as the k6 suites send it. */
    byte[] encodedBody;
    /** {@code POST /sensor-data/irrigation/decoded}: measurements the device decoded itself. */
    byte[] decodedBody;
    /** The Things Stack v3 uplink message of an EM300-TH (the webhook test fixture). */
    byte[] ttsBody;
    /** ChirpStack v4 {@code up} event of an EM300-TH (the webhook test fixture). */
    byte[] chirpStackBody;

    EncodedUplink uplink;
    Serializer<EncodedUplink> serializer;

    @Setup
    public void setUp() {
        Set<String> known = ConcurrentHashMap.newKeySet();
        known.addAll(Set.of("em300th", "lht65", "cayenne-lpp", "json"));
        // As UplinkConfig builds them, with the default limits (64 KiB payloads, batches of 1,000).
        factory = new UplinkFactory(known::contains, 65_536, Clock.systemUTC());
        items = new RequestItems(1000);
        encodedBody = """
                {"deviceId":"em300-th-1","payloadHex":"01755C03673401046865","fPort":85}""".getBytes(StandardCharsets.UTF_8);
        decodedBody = """
                {"deviceId":"em300-th-1","measurements":{"temperature":30.8,"humidity":50.5,"battery":92},\
                "attributes":{"firmware":"1.2"}}""".getBytes(StandardCharsets.UTF_8);
        ttsBody = fixture("tts-uplink-em300th.json");
        chirpStackBody = fixture("chirpstack-up-em300th.json");
        uplink = encoded();
        serializer = PipelineTopic.UPLINKS_ENCODED.valueSerde().serializer();
    }

    /** UplinkController.encoded up to the publisher: path check, parse, validate, build the event. */
    @Benchmark
    public EncodedUplink encoded() {
        var target = factory.target("irrigation", "em300th");
        var json = items.parse(encodedBody);
        return items.map(
                        json,
                        UplinkRequest.class,
                        (request, index) ->
                                factory.create(target, request, null, index).event())
                .getFirst();
    }

    /** UplinkController.decoded up to the publisher: the measurements become the json device type's payload. */
    @Benchmark
    public EncodedUplink decoded() {
        var target = factory.decodedTarget("irrigation");
        var json = items.parse(decodedBody);
        return items.map(
                        json,
                        DecodedRequest.class,
                        (request, index) -> factory.createDecoded(target, request, null, index)
                                .event())
                .getFirst();
    }

    /** WebhookController.theThingsStack up to the publisher, device type in the path. */
    @Benchmark
    public EncodedUplink theThingsStackWebhook() {
        var target = factory.target("irrigation", "em300th");
        return factory.createForwarded(
                        target, Messages.uplink(NetworkServerFormats.theThingsStack(items.parse(ttsBody))))
                .event();
    }

    /** WebhookController.chirpStack up to the publisher, device type in the path. */
    @Benchmark
    public EncodedUplink chirpStackWebhook() {
        var target = factory.target("irrigation", "em300th");
        return factory.createForwarded(
                        target, Messages.uplink(NetworkServerFormats.chirpStack("up", items.parse(chirpStackBody))))
                .event();
    }

    /** The uplinks.encoded record value the producer writes for one uplink. */
    @Benchmark
    public byte[] serializeEncodedUplink() {
        return serializer.serialize(PipelineTopic.UPLINKS_ENCODED.topicName(), uplink);
    }

    private static byte[] fixture(String name) {
        try (var in = IngestJmh.class.getResourceAsStream("/webhooks/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
