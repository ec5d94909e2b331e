package io.sluice.fallback;

/** Test access to the package-private class loading checks. */
public final class ShuffleManagersAccess {
  private ShuffleManagersAccess() {}

  public static String problem(String className) {
    return ShuffleManagers.problem(className);
  }
}
