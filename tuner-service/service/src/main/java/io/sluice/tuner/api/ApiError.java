package io.sluice.tuner.api;

/**
 * The JSON body of every 4xx/5xx answer of the API: {@code field} names the offending field when
 * there is one.
 */
public record ApiError(int status, String error, String field, String message, String path) {}
