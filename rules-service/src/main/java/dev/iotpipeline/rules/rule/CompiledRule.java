package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.Rule;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Map;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * A rule with its expressions parsed and checked once. Expressions are SpEL evaluated in a
 * {@link SimpleEvaluationContext} over the measurement map: names resolve to measurements, a few numeric
 * functions exist, and there is no access to types, beans, constructors or other methods.
 */
public final class CompiledRule {

    /** Far beyond any real rule; bounds the recursion of parsing, checking and evaluating. */
    static final int MAX_DEPTH = 50;

    private static final SpelExpressionParser PARSER = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.OFF, CompiledRule.class.getClassLoader()));
    private static final EvaluationContext CONTEXT = SimpleEvaluationContext.forPropertyAccessors(
                    new MeasurementAccessor())
            .withMethodResolvers(new RuleFunctions())
            .withAssignmentDisabled()
            .build();

    private final Rule rule;
    private final Expression condition;
    private final Expression clearCondition;
    private final Duration holdFor;
    private final Duration inactiveFor;

    private CompiledRule(
            Rule rule, Expression condition, Expression clearCondition, Duration holdFor, Duration inactiveFor) {
        this.rule = rule;
        this.condition = condition;
        this.clearCondition = clearCondition;
        this.holdFor = holdFor;
        this.inactiveFor = inactiveFor;
    }

    /** Throws {@link InvalidExpressionException} naming the field, the position and what is wrong. */
    public static CompiledRule compile(Rule rule) {
        if (rule.type() == Rule.RuleType.INACTIVITY) {
            var inactiveFor = duration("inactiveFor", rule.inactiveFor(), true);
            if (rule.filter().channel() == null
                    && rule.filter().deviceType() == null
                    && rule.filter().deviceId() == null) {
                throw new InvalidExpressionException(
                        "filter", null, 0, "an inactivity rule needs a filter (channel, deviceType or deviceId)");
            }
            return new CompiledRule(rule, null, null, null, inactiveFor);
        }
        var condition = parse("condition", rule.condition());
        var clear = rule.clearCondition() == null || rule.clearCondition().isBlank()
                ? null
                : parse("clearCondition", rule.clearCondition());
        return new CompiledRule(rule, condition, clear, duration("for", rule.holdFor(), false), null);
    }

    public Rule rule() {
        return rule;
    }

    public boolean inactivity() {
        return inactiveFor != null;
    }

    /** How long the condition must hold before the alarm is raised; zero raises at once. */
    public Duration holdFor() {
        return holdFor == null ? Duration.ZERO : holdFor;
    }

    public Duration inactiveFor() {
        return inactiveFor;
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
        int tooDeep = bracketBeyond(text, MAX_DEPTH);
        if (tooDeep >= 0) {
            throw new InvalidExpressionException(
                    field, text, tooDeep, "brackets nest more than " + MAX_DEPTH + " deep");
        }
        SpelExpression expression;
        try {
            expression = PARSER.parseRaw(text);
        } catch (ParseException e) {
            throw new InvalidExpressionException(field, text, Math.max(0, e.getPosition()), e.getSimpleMessage());
        } catch (RuntimeException e) {
            // SpEL's parser asserts on some malformed input instead of a ParseException, e.g. "abs(,1)".
            throw new InvalidExpressionException(field, text, 0, "not an expression: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new InvalidExpressionException(field, text, 0, "nested too deeply");
        }
        if (depth(expression.getAST()) > MAX_DEPTH) {
            // Checking and evaluating recurse once per level: a deeper tree could overflow a stream thread's stack.
            throw new InvalidExpressionException(field, text, 0, "nested more than " + MAX_DEPTH + " levels deep");
        }
        ExpressionCheck.check(field, text, expression.getAST());
        return expression;
    }

    /** The offset of the first bracket outside string literals that opens level {@code limit + 1}, or -1. */
    private static int bracketBeyond(String text, int limit) {
        int level = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                if (++level > limit) {
                    return i;
                }
            } else if (c == ')' || c == ']' || c == '}') {
                level = Math.max(0, level - 1);
            }
        }
        return -1;
    }

    /** The number of levels of the tree, counted without recursion. */
    private static int depth(SpelNode root) {
        int deepest = 0;
        var nodes = new ArrayDeque<SpelNode>();
        var levels = new ArrayDeque<Integer>();
        nodes.push(root);
        levels.push(1);
        while (!nodes.isEmpty()) {
            var node = nodes.pop();
            int level = levels.pop();
            deepest = Math.max(deepest, level);
            for (int i = 0; i < node.getChildCount(); i++) {
                nodes.push(node.getChild(i));
                levels.push(level + 1);
            }
        }
        return deepest;
    }

    private static Duration duration(String field, String text, boolean required) {
        if (text == null || text.isBlank()) {
            if (required) {
                throw new InvalidExpressionException(field, null, 0, "an ISO-8601 duration such as PT5M is required");
            }
            return null;
        }
        try {
            var duration = Duration.parse(text);
            if (duration.isNegative() || duration.isZero()) {
                throw new InvalidExpressionException(field, text, 0, "must be positive");
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw new InvalidExpressionException(
                    field, text, e.getErrorIndex(), "not an ISO-8601 duration such as PT5M");
        }
    }
}
