package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.codec.InvalidScriptException;
import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.MeasurementCatalogue;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.web.problem.Problems;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.ErrorResponseException;

/**
 * The device-type registry API. A change is validated (the codec is built, a script compiled and checked
 * by the sandbox) before it is written to the compacted device-types topic, from which every decoder
 * instance applies it to its next message.
 */
@RestController
class DeviceTypeController {

    private static final Logger log = LoggerFactory.getLogger(DeviceTypeController.class);

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final int MAX_MAPPINGS = 256;
    private static final int MAX_DESCRIPTION = 1000;

    private final DeviceTypeRegistry registry;
    private final Codecs codecs;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Clock clock;

    DeviceTypeController(DeviceTypeRegistry registry, Codecs codecs, KafkaTemplate<String, Object> kafka,
            DecoderProperties properties) {
        this.registry = registry;
        this.codecs = codecs;
        this.kafka = kafka;
        this.sendTimeout = properties.kafka().sendTimeout();
        this.clock = Clock.systemUTC();
    }

    @GetMapping("/device-types")
    List<DeviceType> all() {
        return registry.all();
    }

    @GetMapping("/device-types/{deviceType}")
    DeviceType one(@PathVariable String deviceType) {
        return registry.find(deviceType).orElseThrow(() -> notFound(deviceType));
    }

    @PutMapping("/device-types/{deviceType}")
    ResponseEntity<DeviceType> put(@PathVariable String deviceType, @RequestBody DeviceTypeRequest request)
            throws Exception {
        if (!NAME.matcher(deviceType).matches()) {
            throw invalid("deviceType", "'" + deviceType + "' does not match " + NAME.pattern());
        }
        if (request.codec() == null || request.codec().isBlank()) {
            throw invalid("codec", "is required: a built-in codec name or javascript");
        }
        if (request.mapping() != null && request.mapping().size() > MAX_MAPPINGS) {
            throw invalid("mapping", "holds " + request.mapping().size() + " entries; at most " + MAX_MAPPINGS);
        }
        if (request.description() != null && request.description().length() > MAX_DESCRIPTION) {
            throw invalid("description", "is longer than " + MAX_DESCRIPTION + " characters");
        }
        var existed = registry.find(deviceType).isPresent();
        var type = new DeviceType(deviceType, DeviceType.SCHEMA_VERSION, request.codec(), request.script(),
                request.mapping(), request.description(), Instant.now(clock));
        var codec = compile(type);
        kafka.send(PipelineTopic.DEVICE_TYPES.topicName(), deviceType, type)
                .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        registry.apply(deviceType, type, codec);
        return existed ? ResponseEntity.ok(type)
                : ResponseEntity.created(URI.create("/device-types/" + deviceType)).body(type);
    }

    @DeleteMapping("/device-types/{deviceType}")
    ResponseEntity<Void> delete(@PathVariable String deviceType) throws Exception {
        registry.find(deviceType).orElseThrow(() -> notFound(deviceType));
        kafka.send(PipelineTopic.DEVICE_TYPES.topicName(), deviceType, null)
                .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        registry.apply(deviceType, null);
        return ResponseEntity.noContent().build();
    }

    /** The canonical measurement names and their units, for writing mappings. */
    @GetMapping("/measurements")
    Map<String, String> measurements() {
        return MeasurementCatalogue.all();
    }

    /**
     * Builds the codec as every decoder will: whatever the script engine throws, even on input it was never
     * meant to see, is the script's fault and a 400 with its position when the engine knows it.
     */
    private UplinkCodec compile(DeviceType type) {
        try {
            return codecs.resolve(type);
        } catch (InvalidScriptException e) {
            var position = new LinkedHashMap<String, Object>();
            position.put("field", "script");
            if (e.line() > 0) {
                position.put("line", e.line());
                position.put("column", e.column());
            }
            throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-script", e.getMessage(), position);
        } catch (IllegalArgumentException e) {
            throw Problems.of(HttpStatus.BAD_REQUEST, "unknown-codec", e.getMessage(), Map.of("field", "codec"));
        } catch (RuntimeException | StackOverflowError e) {
            log.warn("The script engine failed on device type {}: {}", type.name(), e.toString());
            throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-script", "The script engine could not compile the "
                    + "script (" + e.getClass().getSimpleName() + "); simplify the construct it fails on",
                    Map.of("field", "script"));
        }
    }

    private static ErrorResponseException invalid(String field, String problem) {
        return Problems.of(HttpStatus.BAD_REQUEST, "invalid-field", field + ": " + problem, Map.of("field", field));
    }

    private static ErrorResponseException notFound(String deviceType) {
        return Problems.of(HttpStatus.NOT_FOUND, "unknown-device-type",
                "Device type '" + deviceType + "' is not registered");
    }
}
