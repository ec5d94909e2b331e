package io.sluice.tuner.ui;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.PathResourceResolver;

/**
 * Serves the web UI's built single-page app at {@code /ui/}: its files come from the class path
 * under {@link #LOCATIONS} (the {@code ui} module's jar puts them in {@code
 * META-INF/resources/ui/}). A path under {@code /ui/} that names no file and has no file extension
 * is a route of the app (a deep link) and gets {@code index.html} (history-API fallback); a missing
 * file with an extension (a stale asset) is 404. {@code /} redirects to {@code /ui/}. {@code
 * index.html} is never cached; the hashed files under {@code assets/} are cached for a year.
 */
@Configuration(proxyBeanMethods = false)
class SpaResources implements WebMvcConfigurer {
  static final String[] LOCATIONS = {"classpath:/META-INF/resources/ui/", "classpath:/static/ui/"};
  static final String INDEX = "index.html";

  @Override
  public void addViewControllers(ViewControllerRegistry registry) {
    registry.addRedirectViewController("/", "/ui/");
  }

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry
        .addResourceHandler("/ui/assets/**")
        .addResourceLocations(assets())
        .setCacheControl(CacheControl.maxAge(365, TimeUnit.DAYS).cachePublic().immutable())
        .resourceChain(true)
        .addResolver(new PathResourceResolver());
    registry
        .addResourceHandler("/ui", "/ui/", "/ui/**")
        .addResourceLocations(LOCATIONS)
        .setCacheControl(CacheControl.noCache())
        .resourceChain(true)
        .addResolver(new AppRoutes());
  }

  private static String[] assets() {
    String[] out = new String[LOCATIONS.length];
    for (int i = 0; i < LOCATIONS.length; i++) {
      out[i] = LOCATIONS[i] + "assets/";
    }
    return out;
  }

  /** A file when one exists, else index.html for paths without an extension (the app's routes). */
  static final class AppRoutes extends PathResourceResolver {
    @Override
    protected Resource getResource(String resourcePath, Resource location) throws IOException {
      Resource found = resourcePath.isEmpty() ? null : super.getResource(resourcePath, location);
      if (found != null) {
        return found;
      }
      return isRoute(resourcePath) ? super.getResource(INDEX, location) : null;
    }

    /** True for "" and paths whose last segment has no dot. */
    static boolean isRoute(String path) {
      String last = path.substring(path.lastIndexOf('/') + 1);
      return !last.contains(".");
    }
  }
}
