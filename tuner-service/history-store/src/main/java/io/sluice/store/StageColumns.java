package io.sluice.store;

import io.sluice.model.StageProfile;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The mapping of {@link StageProfile} fields to the typed columns of the {@code stage_profiles}
 * tables: one column per record component, named in snake_case ({@code shuffleFetchWaitMs ->
 * shuffle_fetch_wait_ms}). The profile's own {@code appId} is not a column: the row's {@code
 * app_id} key column (the run's) stands for it. The DDL files declare the same columns; {@code
 * SchemaFilesTest} checks they agree with this list.
 */
final class StageColumns {

  /** One profile field as a column. */
  record Column(String name, Class<?> type, RecordComponent component) {
    Object get(StageProfile p) {
      try {
        return component.getAccessor().invoke(p);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read StageProfile." + component.getName(), e);
      }
    }
  }

  /** All profile fields but appId, in record order. */
  static final List<Column> COLUMNS;

  private static final Constructor<StageProfile> CTOR;
  private static final RecordComponent[] COMPONENTS = StageProfile.class.getRecordComponents();

  static {
    List<Column> cols = new ArrayList<>();
    Class<?>[] types = new Class<?>[COMPONENTS.length];
    for (int i = 0; i < COMPONENTS.length; i++) {
      RecordComponent rc = COMPONENTS[i];
      types[i] = rc.getType();
      if (!rc.getName().equals("appId")) {
        cols.add(new Column(snake(rc.getName()), rc.getType(), rc));
      }
    }
    COLUMNS = Collections.unmodifiableList(cols);
    try {
      CTOR = StageProfile.class.getDeclaredConstructor(types);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private StageColumns() {}

  static String snake(String camel) {
    StringBuilder b = new StringBuilder();
    for (char c : camel.toCharArray()) {
      if (Character.isUpperCase(c)) {
        b.append('_').append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** Comma-separated column names, in order. */
  static String names() {
    StringBuilder b = new StringBuilder();
    for (Column c : COLUMNS) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(c.name());
    }
    return b.toString();
  }

  /**
   * Binds the profile's fields to parameters from {@code first} on; returns the next free index.
   */
  static int bind(PreparedStatement ps, int first, StageProfile p) throws SQLException {
    int i = first;
    for (Column c : COLUMNS) {
      Object v = c.get(p);
      if (c.type() == int.class) {
        ps.setInt(i++, (Integer) v);
      } else if (c.type() == long.class) {
        ps.setLong(i++, (Long) v);
      } else if (c.type() == double.class) {
        ps.setDouble(i++, (Double) v);
      } else if (c.type() == String.class) {
        ps.setString(
            i++, v == null ? "" : (String) v); // a null stage name is stored (and read back) as ""
      } else {
        throw new IllegalStateException(
            "unmapped StageProfile field type " + c.type() + " of " + c.name());
      }
    }
    return i;
  }

  /** Rebuilds a profile from the columns named as in {@link #COLUMNS}, with the given appId. */
  static StageProfile read(ResultSet rs, String appId) throws SQLException {
    Object[] args = new Object[COMPONENTS.length];
    for (int i = 0; i < COMPONENTS.length; i++) {
      RecordComponent rc = COMPONENTS[i];
      if (rc.getName().equals("appId")) {
        args[i] = appId;
        continue;
      }
      String col = snake(rc.getName());
      Class<?> t = rc.getType();
      if (t == int.class) {
        args[i] = rs.getInt(col);
      } else if (t == long.class) {
        args[i] = rs.getLong(col);
      } else if (t == double.class) {
        args[i] = rs.getDouble(col);
      } else if (t == String.class) {
        args[i] = rs.getString(col);
      } else {
        throw new IllegalStateException("unmapped StageProfile field type " + t + " of " + col);
      }
    }
    try {
      return CTOR.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build StageProfile", e);
    }
  }
}
