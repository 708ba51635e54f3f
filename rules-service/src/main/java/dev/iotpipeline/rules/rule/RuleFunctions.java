package dev.iotpipeline.rules.rule;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.TypedValue;

/**
 * The functions a rule expression may call, written bare ({@code abs(temperature - 20) > 5}); they take and
 * return numbers and reach nothing else.
 */
final class RuleFunctions implements MethodResolver {

    private static final Map<String, Function<double[], Double>> FUNCTIONS = Map.of(
            "abs", args -> Math.abs(args[0]),
            "sqrt", args -> Math.sqrt(args[0]),
            "round", args -> (double) Math.round(args[0]),
            "floor", args -> Math.floor(args[0]),
            "ceil", args -> Math.ceil(args[0]),
            "min", args -> Math.min(args[0], args[1]),
            "max", args -> Math.max(args[0], args[1]));
    private static final Map<String, Integer> ARITY =
            Map.of("abs", 1, "sqrt", 1, "round", 1, "floor", 1, "ceil", 1, "min", 2, "max", 2);

    static boolean exists(String name) {
        return FUNCTIONS.containsKey(name);
    }

    static int arity(String name) {
        return ARITY.get(name);
    }

    @Override
    public MethodExecutor resolve(
            EvaluationContext context, Object target, String name, List<TypeDescriptor> argumentTypes)
            throws AccessException {
        var function = FUNCTIONS.get(name);
        if (function == null || argumentTypes.size() != ARITY.get(name)) {
            return null;
        }
        return new MethodExecutor() {
            @Override
            public TypedValue execute(EvaluationContext context, Object target, Object... arguments)
                    throws AccessException {
                var values = new double[arguments.length];
                for (int i = 0; i < arguments.length; i++) {
                    if (!(arguments[i] instanceof Number number)) {
                        throw new AccessException(name + " takes numbers");
                    }
                    values[i] = number.doubleValue();
                }
                return new TypedValue(function.apply(values));
            }
        };
    }
}
