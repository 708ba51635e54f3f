package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Rule;
import java.util.Map;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.MapAccessor;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * A rule with its expressions parsed once. Expressions are SpEL evaluated in a
 * {@link SimpleEvaluationContext} over the measurement map: names resolve to measurements, and there is
 * no access to types, beans, constructors or methods.
 */
public final class CompiledRule {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.MIXED, CompiledRule.class.getClassLoader()));
    private static final EvaluationContext CONTEXT = SimpleEvaluationContext
            .forPropertyAccessors(new MapAccessor(false))
            .build();

    private final Rule rule;
    private final Expression condition;
    private final Expression clearCondition;

    private CompiledRule(Rule rule, Expression condition, Expression clearCondition) {
        this.rule = rule;
        this.condition = condition;
        this.clearCondition = clearCondition;
    }

    /** Throws {@link InvalidExpressionException} naming the expression and position of the first error. */
    public static CompiledRule compile(Rule rule) {
        var condition = parse("condition", rule.condition());
        var clear = rule.clearCondition() == null || rule.clearCondition().isBlank()
                ? null
                : parse("clearCondition", rule.clearCondition());
        return new CompiledRule(rule, condition, clear);
    }

    public Rule rule() {
        return rule;
    }

    /** True only when the condition evaluates to true; a missing measurement or a type error is not a match. */
    public boolean raises(Map<String, Double> measurements) {
        return Boolean.TRUE.equals(evaluate(condition, measurements));
    }

    /** The clear condition, or by default the plain negation of the condition, on a successful evaluation. */
    public boolean clears(Map<String, Double> measurements) {
        if (clearCondition != null) {
            return Boolean.TRUE.equals(evaluate(clearCondition, measurements));
        }
        return Boolean.FALSE.equals(evaluate(condition, measurements));
    }

    private static Boolean evaluate(Expression expression, Map<String, Double> measurements) {
        try {
            return expression.getValue(CONTEXT, measurements, Boolean.class);
        } catch (RuntimeException unevaluable) {
            return null;
        }
    }

    private static Expression parse(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidExpressionException(field, text, 0, field + " is required");
        }
        try {
            return PARSER.parseExpression(text);
        } catch (ParseException e) {
            throw new InvalidExpressionException(field, text, Math.max(0, e.getPosition()), e.getSimpleMessage());
        }
    }
}
