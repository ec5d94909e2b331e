package io.sluice.fallback;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleManager;

/** Loading and creating ShuffleManagers by class name, the way Spark's SparkEnv does. */
final class ShuffleManagers {
  /**
   * The handle classes Spark's SortShuffleManager produces (exact classes: tier handles may extend
   * them).
   */
  private static final Set<String> SORT_HANDLES =
      Set.of(
          "org.apache.spark.shuffle.BaseShuffleHandle",
          "org.apache.spark.shuffle.sort.SerializedShuffleHandle",
          "org.apache.spark.shuffle.sort.BypassMergeSortShuffleHandle");

  private ShuffleManagers() {}

  /** Why {@code className} cannot serve as a ShuffleManager here, or null if it can. */
  static String problem(String className) {
    try {
      Class<?> c = Class.forName(className, false, loader());
      return ShuffleManager.class.isAssignableFrom(c)
          ? null
          : "not a " + ShuffleManager.class.getName();
    } catch (ClassNotFoundException | LinkageError e) {
      return "cannot be loaded (" + e + ")";
    }
  }

  /**
   * A new instance, trying the constructors Spark tries: (SparkConf, boolean isDriver),
   * (SparkConf), ().
   */
  static ShuffleManager create(String className, SparkConf conf, boolean isDriver)
      throws ReflectiveOperationException {
    Class<? extends ShuffleManager> c =
        Class.forName(className, true, loader()).asSubclass(ShuffleManager.class);
    try {
      Constructor<? extends ShuffleManager> k = c.getConstructor(SparkConf.class, boolean.class);
      return unwrap(() -> k.newInstance(conf, isDriver));
    } catch (NoSuchMethodException e) {
      try {
        Constructor<? extends ShuffleManager> k = c.getConstructor(SparkConf.class);
        return unwrap(() -> k.newInstance(conf));
      } catch (NoSuchMethodException e2) {
        Constructor<? extends ShuffleManager> k = c.getConstructor();
        return unwrap(k::newInstance);
      }
    }
  }

  /**
   * Whether {@code handle} is one of Spark's sort shuffle handles (as opposed to a tier's own
   * handle).
   */
  static boolean isSortHandle(ShuffleHandle handle) {
    return SORT_HANDLES.contains(handle.getClass().getName());
  }

  private interface Creation {
    ShuffleManager get() throws ReflectiveOperationException;
  }

  private static ShuffleManager unwrap(Creation creation) throws ReflectiveOperationException {
    try {
      return creation.get();
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  private static ClassLoader loader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : ShuffleManagers.class.getClassLoader();
  }
}
