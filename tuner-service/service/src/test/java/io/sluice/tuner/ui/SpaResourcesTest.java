package io.sluice.tuner.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpaResourcesTest {
  @Test
  void routesArePathsWithoutAnExtensionInTheirLastSegment() {
    assertThat(SpaResources.AppRoutes.isRoute("")).isTrue();
    assertThat(SpaResources.AppRoutes.isRoute("jobs")).isTrue();
    assertThat(SpaResources.AppRoutes.isRoute("v1.2/job")).isTrue();
    assertThat(SpaResources.AppRoutes.isRoute("assets/app.js")).isFalse();
    assertThat(SpaResources.AppRoutes.isRoute("favicon.ico")).isFalse();
  }
}
