package dev.iotpipeline.web.problem;

/** Counts rejected requests by problem type; a service that wants the metric provides one as a bean. */
@FunctionalInterface
public interface RejectionCounter {

    RejectionCounter NONE = type -> {};

    void count(String problemType);
}
