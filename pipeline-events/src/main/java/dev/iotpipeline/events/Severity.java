package dev.iotpipeline.events;

/** How urgent an alarm is, most urgent first. */
public enum Severity {
    CRITICAL,
    MAJOR,
    MINOR,
    WARNING,
    INFO
}
