package io.sluice.tuner.web;

import java.io.IOException;
import java.time.Duration;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.PathResourceResolver;

/**
 * Serves the web UI (the {@code sluice-ui} jar's {@code META-INF/resources/ui/}) at {@code /ui/}. Hashed bundles
 * under {@code /ui/assets/} are cached for a year and a missing one is a 404; any other {@code /ui/...} path that is
 * not a file is one of the single-page app's own addresses and gets {@code index.html} (history-API fallback), never
 * cached, so a pasted deep link opens the right page. {@code /} redirects to {@code /ui/}.
 */
@Configuration(proxyBeanMethods = false)
class WebUi implements WebMvcConfigurer {
  static final String LOCATION = "classpath:/META-INF/resources/ui/";

  @Override
  public void addViewControllers(ViewControllerRegistry registry) {
    registry.addRedirectViewController("/", "/ui/");
    registry.addRedirectViewController("/ui", "/ui/");
    // the resource handler never resolves an empty path, so the shell's own address is forwarded
    registry.addViewController("/ui/").setViewName("forward:/ui/index.html");
  }

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry.addResourceHandler("/ui/assets/**")
        .addResourceLocations(LOCATION + "assets/")
        .setCacheControl(CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable());
    registry.addResourceHandler("/ui/**")
        .addResourceLocations(LOCATION)
        .setCacheControl(CacheControl.noCache())
        .resourceChain(true)
        .addResolver(new AppShellFallback());
  }

  /** A file when there is one, else the app shell. */
  static final class AppShellFallback extends PathResourceResolver {
    @Override
    protected Resource getResource(String resourcePath, Resource location) throws IOException {
      Resource file = super.getResource(resourcePath, location);
      if (file != null) {
        return file;
      }
      return super.getResource("index.html", location);
    }

  }
}
