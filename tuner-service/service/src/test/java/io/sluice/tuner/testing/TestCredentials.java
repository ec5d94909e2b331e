package io.sluice.tuner.testing;

/**
 * The credentials every {@code @SpringBootTest} of this module runs with ({@code
 * config/application.properties} of the test resources), as {@code Authorization} header values.
 */
public final class TestCredentials {
  public static final String ADMIN = "Bearer test-admin-token";
  public static final String OPERATOR = "Bearer test-operator-token";
  public static final String VIEWER = "Bearer test-viewer-token";
  public static final String REPORTER = "Bearer test-reporter-token";

  private TestCredentials() {}

  /** HTTP Basic for a user of the users list. */
  public static String basic(String user, String password) {
    return "Basic "
        + java.util.Base64.getEncoder()
            .encodeToString(
                (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
