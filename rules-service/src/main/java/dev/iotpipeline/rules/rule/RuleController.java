package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Rule;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** The rule API; rules take effect on the stream as soon as the write is acknowledged. */
@RestController
class RuleController {

    private final RuleRegistry registry;
    private final RuleSet rules;

    RuleController(RuleRegistry registry, RuleSet rules) {
        this.registry = registry;
        this.rules = rules;
    }

    @GetMapping("/rules")
    List<Rule> all() {
        return rules.all();
    }

    @GetMapping("/rules/{id}")
    Rule one(@PathVariable String id) {
        return rules.find(id).orElseThrow(() -> notFound(id));
    }

    @PostMapping("/rules")
    ResponseEntity<Rule> create(@RequestBody RuleRequest request) throws Exception {
        var rule = registry.save(null, request);
        return ResponseEntity.created(URI.create("/rules/" + rule.id())).body(rule);
    }

    @PutMapping("/rules/{id}")
    Rule replace(@PathVariable String id, @RequestBody RuleRequest request) throws Exception {
        rules.find(id).orElseThrow(() -> notFound(id));
        return registry.save(id, request);
    }

    @DeleteMapping("/rules/{id}")
    ResponseEntity<Void> delete(@PathVariable String id) throws Exception {
        rules.find(id).orElseThrow(() -> notFound(id));
        registry.delete(id);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler
    ProblemDetail invalidExpression(InvalidExpressionException e) {
        var problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(URI.create("https://iot-pipeline.dev/problems/invalid-expression"));
        problem.setTitle("Invalid rule expression");
        problem.setProperties(Map.of("field", e.field(), "position", e.position(), "unknownNames", e.unknownNames()));
        return problem;
    }

    private static ResponseStatusException notFound(String id) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, "Rule '" + id + "' does not exist");
    }
}
