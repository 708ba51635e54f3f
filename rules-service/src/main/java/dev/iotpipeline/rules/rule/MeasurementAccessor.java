package dev.iotpipeline.rules.rule;

import java.util.Map;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.TypedValue;

/**
 * Resolves names in rule expressions against the data unit's measurements: a bare name reads that
 * measurement, and {@code m} is the whole map, for names outside the catalogue ({@code m['TempC_DS']}).
 */
final class MeasurementAccessor implements PropertyAccessor {

    static final String ALL = "m";

    @Override
    public Class<?>[] getSpecificTargetClasses() {
        return new Class<?>[] {Map.class};
    }

    @Override
    public boolean canRead(EvaluationContext context, Object target, String name) {
        return target instanceof Map<?, ?> map && (ALL.equals(name) || map.containsKey(name));
    }

    @Override
    public TypedValue read(EvaluationContext context, Object target, String name) throws AccessException {
        var map = (Map<?, ?>) target;
        return new TypedValue(ALL.equals(name) ? map : map.get(name));
    }

    @Override
    public boolean canWrite(EvaluationContext context, Object target, String name) {
        return false;
    }

    @Override
    public void write(EvaluationContext context, Object target, String name, Object newValue) throws AccessException {
        throw new AccessException("rule expressions are read-only");
    }
}
