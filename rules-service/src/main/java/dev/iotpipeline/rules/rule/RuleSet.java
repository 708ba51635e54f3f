package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Rule;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The current rules of this instance, compiled once per change and read on every data unit. */
public final class RuleSet {

    private static final Logger log = LoggerFactory.getLogger(RuleSet.class);

    private final Map<String, CompiledRule> rules = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /** Applies a rule from the rules topic; null deletes. A rule that no longer compiles is dropped, loudly. */
    public void apply(String id, Rule rule) {
        if (rule == null) {
            if (rules.remove(id) != null) {
                version.incrementAndGet();
            }
            return;
        }
        var current = rules.get(id);
        if (current != null && current.rule().equals(rule)) {
            return;
        }
        try {
            rules.put(id, CompiledRule.compile(rule));
        } catch (InvalidExpressionException e) {
            rules.remove(id);
            log.error("Rule {} ignored: {}", id, e.getMessage());
        }
        version.incrementAndGet();
    }

    /** Grows with every change to the rules in force, so that who acts on a change can tell one happened. */
    public long version() {
        return version.get();
    }

    public Optional<CompiledRule> compiled(String id) {
        return Optional.ofNullable(rules.get(id));
    }

    public Optional<Rule> find(String id) {
        return Optional.ofNullable(rules.get(id)).map(CompiledRule::rule);
    }

    public List<Rule> all() {
        Collection<CompiledRule> values = rules.values();
        return values.stream()
                .map(CompiledRule::rule)
                .sorted(Comparator.comparing(Rule::id))
                .toList();
    }

    /** Enabled rules whose filter matches the data unit. */
    public List<CompiledRule> matching(DataUnit unit) {
        return rules.values().stream()
                .filter(r -> r.rule().enabled() && r.rule().filter().matches(unit))
                .toList();
    }
}
