package io.sluice.tuner.policy;

/**
 * A (key, direction) that was tried and rolled back for a job: never proposed again until the job
 * is re-opened (input size drift). {@code direction} is {@code up}/{@code down} for numbers, {@code
 * =value} otherwise.
 */
public record Rejection(
    String key, String direction, String value, String runKey, long runStart, String reason) {}
