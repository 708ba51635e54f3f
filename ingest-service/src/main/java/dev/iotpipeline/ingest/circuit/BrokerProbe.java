package dev.iotpipeline.ingest.circuit;

/** Asks the Kafka cluster whether it answers, within a short timeout. */
@FunctionalInterface
public interface BrokerProbe extends AutoCloseable {

    boolean clusterAnswers() throws InterruptedException;

    @Override
    default void close() {}
}
