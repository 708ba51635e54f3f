package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.validation.Fields;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The rule API; rules take effect on the stream as soon as the write is acknowledged. */
@RestController
class RuleController {

    /** Far above any real rule; bounds what one request can make every rules instance parse and hold. */
    static final int MAX_NAME = 200;

    static final int MAX_EXPRESSION = 2000;

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
        var rule = save(null, request);
        return ResponseEntity.created(URI.create("/rules/" + rule.id())).body(rule);
    }

    @PutMapping("/rules/{id}")
    Rule replace(@PathVariable String id, @RequestBody RuleRequest request) throws Exception {
        rules.find(id).orElseThrow(() -> notFound(id));
        return save(id, request);
    }

    @DeleteMapping("/rules/{id}")
    ResponseEntity<Void> delete(@PathVariable String id) throws Exception {
        rules.find(id).orElseThrow(() -> notFound(id));
        registry.delete(id);
        return ResponseEntity.noContent().build();
    }

    private Rule save(String id, RuleRequest request) throws Exception {
        Fields.requireMaxLength("name", request.name(), MAX_NAME);
        Fields.requireMaxLength("condition", request.condition(), MAX_EXPRESSION);
        Fields.requireMaxLength("clearCondition", request.clearCondition(), MAX_EXPRESSION);
        requireFilter(request.filter());
        try {
            return registry.save(id, request);
        } catch (InvalidExpressionException e) {
            var properties = new LinkedHashMap<String, Object>();
            properties.put("field", e.field());
            properties.put("position", e.position());
            properties.put("unknownNames", e.unknownNames());
            throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-expression", e.getMessage(), properties);
        }
    }

    /**
     * A filter field names what an uplink can carry, or the rule could never match: a channel or device type is a
     * name, a device id a device id, each as ingest accepts them.
     */
    private static void requireFilter(RuleFilter filter) {
        if (filter == null) {
            return;
        }
        if (filter.channel() != null && !Fields.isName(filter.channel())) {
            throw Fields.invalid("filter.channel", "must match " + Fields.NAME.pattern());
        }
        if (filter.deviceType() != null && !Fields.isName(filter.deviceType())) {
            throw Fields.invalid("filter.deviceType", "must match " + Fields.NAME.pattern());
        }
        if (filter.deviceId() != null && !Fields.isDeviceId(filter.deviceId())) {
            throw Fields.invalid("filter.deviceId", "must match " + Fields.DEVICE_ID.pattern());
        }
    }

    private static ErrorResponseException notFound(String id) {
        return Problems.of(HttpStatus.NOT_FOUND, "unknown-rule", "Rule '" + id + "' does not exist");
    }
}
