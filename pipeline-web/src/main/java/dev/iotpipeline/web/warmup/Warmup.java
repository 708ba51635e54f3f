package dev.iotpipeline.web.warmup;

/**
 * One hot path of a service, exercised before the service reports ready, so that its first real requests meet
 * compiled code, loaded classes and open connections instead of paying for them. One that is also
 * {@link AutoCloseable} is closed when the warm-up ends.
 */
public interface Warmup {

    /** A short name for the log line. */
    String name();

    /**
     * Runs the path once; {@code round} counts up from 0, to vary the input. It must leave nothing a user can see:
     * no record in a topic the pipeline or a user reads (a topic of the warm-up's own, deleted when it closes, is
     * fine), no row, no metric that counts traffic.
     */
    void exercise(int round) throws Exception;
}
