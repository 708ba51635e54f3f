package dev.iotpipeline.decoder.registry;

import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.checkDescription;
import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.checkMapping;
import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.checkName;
import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.examplesFailed;
import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.notFound;
import static dev.iotpipeline.decoder.registry.DeviceTypeRequests.payload;
import static dev.iotpipeline.web.validation.Fields.invalid;

import dev.iotpipeline.decoder.DecoderProperties;
import dev.iotpipeline.decoder.codec.CodecErrorsException;
import dev.iotpipeline.decoder.codec.CodecException;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.decoder.codec.InvalidScriptException;
import dev.iotpipeline.decoder.codec.JavaScriptCodec;
import dev.iotpipeline.decoder.codec.PrimaryOutput;
import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.decoder.decoding.FieldMapper;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.FieldMapping;
import dev.iotpipeline.events.MeasurementCatalogue;
import dev.iotpipeline.web.problem.Problems;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The device-type registry API. A change is validated (the codec is built, a script compiled and checked
 * by the sandbox, its conformance examples run) before it is written to the compacted device-types topic, from
 * which every decoder instance applies it to its next message.
 */
@RestController
class DeviceTypeController {

    private static final Logger log = LoggerFactory.getLogger(DeviceTypeController.class);

    private final DeviceTypeRegistry registry;
    private final Codecs codecs;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final Clock clock;

    DeviceTypeController(
            DeviceTypeRegistry registry,
            Codecs codecs,
            KafkaTemplate<String, Object> kafka,
            DecoderProperties properties) {
        this.registry = registry;
        this.codecs = codecs;
        this.kafka = kafka;
        this.sendTimeout = properties.kafka().sendTimeout();
        this.clock = Clock.systemUTC();
    }

    @GetMapping("/device-types")
    List<DeviceType> all() {
        return registry.resolvedAll().stream().map(DeviceTypeController::shown).toList();
    }

    @GetMapping("/device-types/{deviceType}")
    DeviceType one(@PathVariable String deviceType) {
        return registry.resolve(deviceType).map(DeviceTypeController::shown).orElseThrow(() -> notFound(deviceType));
    }

    @PutMapping("/device-types/{deviceType}")
    ResponseEntity<DeviceType> put(@PathVariable String deviceType, @RequestBody DeviceTypeRequest request)
            throws Exception {
        checkName(deviceType);
        if (request.codec() == null || request.codec().isBlank()) {
            throw invalid("codec", "is required: a built-in codec name or javascript");
        }
        checkMapping(request.mapping());
        checkDescription(request.description());
        CodecExamples.validate(request.examples()).ifPresent(problem -> {
            throw invalid(problem.field(), problem.problem());
        });
        var requested = primaryOutput(request.primaryOutput());
        var existing = registry.resolve(deviceType);
        var draft = new DeviceType(
                deviceType,
                DeviceType.SCHEMA_VERSION,
                request.codec(),
                request.script(),
                request.mapping(),
                request.description(),
                Instant.now(clock),
                request.examples(),
                null,
                primaryOrKept(requested, existing).json());
        var codec = compile(draft);
        var primary = primaryFor(codec, requested, draft);
        var check = CodecExamples.run(codec, draft.examples());
        if (!check.passed()) {
            throw examplesFailed(check);
        }
        var type = draft.shownAs(CodecForm.of(codec), primary.json());
        registry.save(kafka::send, deviceType, type, codec, sendTimeout);
        return existing.isPresent()
                ? ResponseEntity.ok(type)
                : ResponseEntity.created(URI.create("/device-types/" + deviceType))
                        .body(type);
    }

    @DeleteMapping("/device-types/{deviceType}")
    ResponseEntity<Void> delete(@PathVariable String deviceType) throws Exception {
        registry.find(deviceType).orElseThrow(() -> notFound(deviceType));
        registry.save(kafka::send, deviceType, null, sendTimeout);
        return ResponseEntity.noContent().build();
    }

    /**
     * Decodes one payload as the pipeline would, mapping included, and writes nothing: with the stored type, or,
     * when the body names a codec, with that codec as a {@code PUT} of the body would register it.
     */
    @PostMapping("/device-types/{deviceType}/test")
    PayloadTestResult test(@PathVariable String deviceType, @RequestBody PayloadTestRequest request) {
        var payload = payload(request);
        if (request.fPort() != null && (request.fPort() < 0 || request.fPort() > 255)) {
            throw invalid("fPort", request.fPort() + " is not a port (0..255)");
        }
        var requested = primaryOutput(request.primaryOutput());
        UplinkCodec codec;
        Map<String, FieldMapping> mapping;
        if (request.codec() != null) {
            checkName(deviceType);
            checkMapping(request.mapping());
            var draft = new DeviceType(
                    deviceType,
                    DeviceType.SCHEMA_VERSION,
                    request.codec(),
                    request.script(),
                    request.mapping(),
                    null,
                    Instant.now(clock),
                    List.of(),
                    null,
                    primaryOrKept(requested, registry.resolve(deviceType)).json());
            codec = compile(draft);
            primaryFor(codec, requested, draft);
            mapping = draft.mapping();
        } else {
            if (request.script() != null || request.mapping() != null) {
                throw invalid("codec", "is required when script or mapping is given");
            }
            var resolved = registry.resolve(deviceType).orElseThrow(() -> notFound(deviceType));
            if (resolved.codec() == null) {
                throw Problems.of(
                        HttpStatus.UNPROCESSABLE_CONTENT,
                        "codec-rejected-payload",
                        "The codec of device type '" + deviceType + "' cannot be built: " + resolved.brokenReason());
            }
            codec = resolved.codec();
            if (requested != null && codec instanceof JavaScriptCodec script) {
                codec = script.storing(primaryFor(codec, requested, resolved.type()));
            }
            mapping = resolved.type().mapping();
        }
        JavaScriptCodec.Trial outputs;
        try {
            outputs = CodecExamples.decode(codec, payload, request.fPort());
        } catch (CodecErrorsException e) {
            throw Problems.of(
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    "codec-rejected-payload",
                    e.getMessage(),
                    Map.of("errors", e.errors()));
        } catch (CodecException e) {
            throw Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "codec-rejected-payload", e.getMessage());
        } catch (RuntimeException e) {
            // A built-in codec's bug: the pipeline dead-letters the uplink with the same reason.
            throw Problems.of(
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    "codec-rejected-payload",
                    "codec " + codec.name() + " failed: " + e);
        }
        var primary = codec instanceof JavaScriptCodec script ? script.primary() : PrimaryOutput.DECODED;
        var mapped = FieldMapper.apply(outputs.stored(primary), mapping);
        return new PayloadTestResult(
                deviceType,
                CodecForm.of(codec),
                CodecForm.normalizes(codec) ? primary.json() : null,
                mapped.measurements(),
                mapped.attributes(),
                raw(outputs.output()),
                outputs.normalized() == null ? null : raw(outputs.normalized()));
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
            throw Problems.of(
                    HttpStatus.BAD_REQUEST,
                    "invalid-script",
                    "The script engine could not compile the " + "script ("
                            + e.getClass().getSimpleName() + "); simplify the construct it fails on",
                    Map.of("field", "script"));
        }
    }

    /** The primary output a request names, or null when it names none; a 400 for anything else. */
    private static PrimaryOutput primaryOutput(String requested) {
        if (requested == null) {
            return null;
        }
        try {
            return PrimaryOutput.of(requested);
        } catch (IllegalArgumentException e) {
            throw invalid("primaryOutput", e.getMessage());
        }
    }

    /**
     * What a request names, else what the stored type has, so a type whose vendor adds {@code normalizeUplink}
     * (or one recorded before both outputs were kept) keeps its names across a {@code PUT}; a new type: decoded.
     */
    private static PrimaryOutput primaryOrKept(PrimaryOutput requested, Optional<ResolvedDeviceType> existing) {
        if (requested != null) {
            return requested;
        }
        return existing.map(CodecForm::primary).orElse(PrimaryOutput.DECODED);
    }

    /**
     * The primary output to record for a compiled codec: decoded for a codec with one output, where there is no
     * choice; asking a codec without {@code normalizeUplink} for its normalized output is a 400.
     */
    private static PrimaryOutput primaryFor(UplinkCodec codec, PrimaryOutput requested, DeviceType draft) {
        if (!CodecForm.normalizes(codec)) {
            if (requested == PrimaryOutput.NORMALIZED) {
                throw invalid(
                        "primaryOutput",
                        "normalized needs a script that defines normalizeUplink(input) "
                                + "beside decodeUplink(input); device type '" + draft.name() + "' has one output");
            }
            return PrimaryOutput.DECODED;
        }
        return requested != null ? requested : PrimaryOutput.recorded(draft.primaryOutput(), true);
    }

    /** A codec's output as it holds it: measurements, then attributes (its warnings among them). */
    private static Map<String, Object> raw(Decoded decoded) {
        var raw = new LinkedHashMap<String, Object>(decoded.measurements());
        raw.putAll(decoded.attributes());
        return raw;
    }

    /**
     * The type as the API shows it: with its form and primary output, also when it was registered before they were
     * recorded.
     */
    private static DeviceType shown(ResolvedDeviceType resolved) {
        var type = resolved.type();
        var form = CodecForm.shown(resolved);
        var primary = CodecForm.primary(resolved).json();
        return Objects.equals(form, type.form()) && Objects.equals(primary, type.primaryOutput())
                ? type
                : type.shownAs(form, primary);
    }
}
