package dev.iotpipeline.events;

/** Lifecycle state of one alarm. */
public enum AlarmState {
    ACTIVE,
    CLEARED
}
