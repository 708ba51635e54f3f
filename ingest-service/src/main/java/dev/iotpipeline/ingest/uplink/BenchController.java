package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.Ids;
import java.time.Instant;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers 202 without touching Kafka, so a benchmark can measure the HTTP ceiling of this service with the
 * same generator in the same run. Off unless {@code ingest.bench.noop-endpoint=true}.
 */
@RestController
@ConditionalOnBooleanProperty("ingest.bench.noop-endpoint")
class BenchController {

    @PostMapping("/bench/noop")
    ResponseEntity<Accepted> noop(@RequestBody byte[] body) {
        return ResponseEntity.accepted().body(new Accepted(Ids.newId(), Instant.now()));
    }
}
