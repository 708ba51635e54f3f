package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.codec.InvalidScriptException;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.MeasurementCatalogue;
import dev.iotpipeline.events.PipelineTopic;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The device-type registry API. A change is validated (the codec is built, a script compiled and checked
 * by the sandbox) before it is written to the compacted device-types topic, from which every decoder
 * instance applies it to its next message.
 */
@RestController
class DeviceTypeController {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final String PROBLEMS = "https://iot-pipeline.dev/problems/";

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
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "device type must match " + NAME.pattern());
        }
        if (request.codec() == null || request.codec().isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "codec is required");
        }
        var existed = registry.find(deviceType).isPresent();
        var type = new DeviceType(deviceType, DeviceType.SCHEMA_VERSION, request.codec(), request.script(),
                request.mapping(), request.description(), Instant.now(clock));
        codecs.resolve(type);
        kafka.send(PipelineTopic.DEVICE_TYPES.topicName(), deviceType, type)
                .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        registry.apply(deviceType, type);
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

    @ExceptionHandler
    ProblemDetail invalidScript(InvalidScriptException e) {
        var problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(URI.create(PROBLEMS + "invalid-script"));
        problem.setTitle("Invalid codec script");
        problem.setProperty("line", e.line());
        problem.setProperty("column", e.column());
        return problem;
    }

    @ExceptionHandler
    ProblemDetail unknownCodec(IllegalArgumentException e) {
        var problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(URI.create(PROBLEMS + "unknown-codec"));
        problem.setTitle("Unknown codec");
        return problem;
    }

    private static ResponseStatusException notFound(String deviceType) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, "Device type '" + deviceType + "' is not registered");
    }
}
