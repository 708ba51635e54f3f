package dev.iotpipeline.events.fuzz;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import net.jqwik.api.statistics.Statistics;

/**
 * The invariant of every property test: a call either returns or throws the one rejection its caller maps to
 * a client error, and it returns within a time bound. Calls run on a worker thread of default stack size (as a
 * request thread has), so a stack overflow or a hang is reported as a failure instead of ending the run.
 */
public final class Fuzz {

    /** Far above any single call here; a call that takes this long is a hang. */
    public static final Duration HANG = Duration.ofSeconds(10);

    private static ExecutorService worker = newWorker();

    private Fuzz() {}

    /**
     * Runs {@code call}; passes when it returns, or throws {@code rejection} satisfying {@code precise}. The
     * outcome ("value" or what {@code label} calls the rejection) goes into the property's statistics, so a
     * report shows how many inputs got how far. Returns null for a rejection.
     */
    public static <T, E extends Throwable> T expect(
            Callable<T> call, Class<E> rejection, Predicate<E> precise, Function<E, String> label) {
        return expect(null, call, rejection, precise, label);
    }

    /** As above, with the outcome "value" counted as "{@code subject}: value" (the label names the subject itself). */
    public static <T, E extends Throwable> T expect(
            String subject, Callable<T> call, Class<E> rejection, Predicate<E> precise, Function<E, String> label) {
        Throwable thrown;
        try {
            T value = bounded(call);
            Statistics.label("outcome").collect(subject == null ? "value" : subject + ": value");
            return value;
        } catch (Throwable e) {
            thrown = e;
        }
        if (rejection.isInstance(thrown) && precise.test(rejection.cast(thrown))) {
            Statistics.label("outcome").collect(label.apply(rejection.cast(thrown)));
            return null;
        }
        throw new AssertionError("escaped " + thrown, thrown);
    }

    public static <T, E extends Throwable> T expect(Callable<T> call, Class<E> rejection, Predicate<E> precise) {
        return expect(call, rejection, precise, e -> e.getClass().getSimpleName());
    }

    /** Runs {@code call}, which must return (and not throw) within the bound; {@code label} names the outcome. */
    public static <T> T returns(Callable<T> call, Function<T, String> label) {
        T value;
        try {
            value = bounded(call);
        } catch (Throwable e) {
            throw new AssertionError("escaped " + e, e);
        }
        Statistics.label("outcome").collect(label.apply(value));
        return value;
    }

    /** The result of {@code call}, or what it threw; an AssertionError when it does not finish within {@link #HANG}. */
    public static synchronized <T> T bounded(Callable<T> call) throws Throwable {
        var future = worker.submit(call);
        try {
            return future.get(HANG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            future.cancel(true);
            worker.shutdownNow();
            worker = newWorker();
            throw new AssertionError("no answer within " + HANG + " (hang)");
        }
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            var thread = new Thread(r, "fuzz-worker");
            thread.setDaemon(true);
            return thread;
        });
    }
}
