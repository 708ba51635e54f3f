package dev.iotpipeline.events;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;

/**
 * Calls a record's (or any class's) constructor creator through one spreading method handle built once: Jackson
 * 3.1's {@code AnnotatedConstructor.call(Object[])} calls {@code MethodHandle.invokeWithArguments}, which builds
 * a spreader on every call and was 4 % of the stack's CPU under batched load (docs/benchmarks/profiles).
 */
final class SpreadingCreators implements ValueInstantiators {

    @Override
    public ValueInstantiator findValueInstantiator(DeserializationConfig config, BeanDescription.Supplier description) {
        return null;
    }

    @Override
    public ValueInstantiator modifyValueInstantiator(
            DeserializationConfig config, BeanDescription.Supplier description, ValueInstantiator instantiator) {
        if (instantiator.getClass() == StdValueInstantiator.class
                && ((StdValueInstantiator) instantiator).getWithArgsCreator() instanceof AnnotatedConstructor creator) {
            var spreader = spreader(creator.getAnnotated());
            if (spreader != null) {
                return new Spreading((StdValueInstantiator) instantiator, spreader);
            }
        }
        return instantiator;
    }

    /** {@code (Object[]) -> Object} over the constructor, or null where it cannot be had (Jackson's call stays). */
    static MethodHandle spreader(Constructor<?> constructor) {
        try {
            return MethodHandles.lookup()
                    .unreflectConstructor(constructor)
                    .asSpreader(Object[].class, constructor.getParameterCount())
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static final class Spreading extends StdValueInstantiator {

        private final MethodHandle creator;

        Spreading(StdValueInstantiator base, MethodHandle creator) {
            super(base);
            this.creator = creator;
        }

        @Override
        public Object createFromObjectWith(DeserializationContext context, Object[] arguments) throws JacksonException {
            try {
                return (Object) creator.invokeExact(arguments);
            } catch (Error e) {
                throw e;
            } catch (Throwable e) {
                // As StdValueInstantiator does: the constructor's own exception, e.g. a record's validation
                return context.handleInstantiationProblem(_valueClass, arguments, rewrapCtorProblem(context, e));
            }
        }
    }
}
