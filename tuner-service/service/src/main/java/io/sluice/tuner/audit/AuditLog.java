package io.sluice.tuner.audit;

import java.util.List;

/** Where operator and admin actions are kept: the history store's database (H2 or ClickHouse). */
public interface AuditLog extends AutoCloseable {
  void append(AuditRecord r);

  /** The records matching the query, newest first. */
  List<AuditRecord> find(AuditQuery q);

  @Override
  void close();
}
