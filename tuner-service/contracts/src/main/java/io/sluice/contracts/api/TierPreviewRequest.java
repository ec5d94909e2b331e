package io.sluice.contracts.api;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Body of {@code POST /api/v1/tiers/preview}: the submission whose tier decision to show, named by
 * {@code jobKey} or by the fields the job key derives from (cluster, queue, user, appName, and an
 * explicit key in {@code conf}).
 */
public record TierPreviewRequest(
    @Size(max = Limits.NAME) String cluster,
    @Size(max = Limits.NAME) String queue,
    @Size(max = Limits.NAME) String user,
    @Size(max = Limits.NAME) String appName,
    @Size(max = Limits.JOB_KEY) String jobKey,
    @Size(max = Limits.CONF_ENTRIES)
        Map<@Size(max = Limits.CONF_KEY) String, @NotNull @Size(max = Limits.CONF_VALUE) String>
            conf) {
  public TierPreviewRequest {
    conf = conf == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(conf));
  }
}
