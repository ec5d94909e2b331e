package io.sluice.bench.throttlesim.client;

/**
 * What every layer needs to know about an application: its id, priority, whether it runs the shim,
 * its class.
 */
public record AppRef(int index, String appId, int priority, boolean shim, String kind) {}
