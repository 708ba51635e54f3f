package dev.iotpipeline.ingest.problem;

/** Counts rejected requests by problem type. */
@FunctionalInterface
public interface RejectionCounter {

    void count(String problemType);
}
