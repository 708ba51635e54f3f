package dev.iotpipeline.decoder.deadletter;

import dev.iotpipeline.decoder.DecoderProperties;
import java.time.Instant;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Operator endpoint: {@code POST /dead-letters/redrive?deviceType=..&since=..} after fixing a codec. */
@RestController
class DeadLetterController {

    private final DeadLetterRedrive redrive;

    DeadLetterController(
            ConsumerFactory<?, ?> consumers, KafkaTemplate<String, Object> kafka, DecoderProperties properties) {
        this.redrive = new DeadLetterRedrive(
                consumers.getConfigurationProperties(),
                kafka,
                properties.kafka().sendTimeout());
    }

    @PostMapping("/dead-letters/redrive")
    DeadLetterRedrive.Result redrive(
            @RequestParam(required = false) String deviceType, @RequestParam(required = false) Instant since)
            throws Exception {
        return redrive.redrive(deviceType, since);
    }
}
