package io.sluice.tuner.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.forwardedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.junit.jupiter.web.SpringJUnitWebConfig;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * The UI jar's assets through the real Spring MVC resource handling: the app shell at /ui/ and at every deep link
 * that is not a file, the hashed bundle with a long cache, a missing bundle as 404, / redirected to /ui/.
 */
@SpringJUnitWebConfig(classes = {WebUiTest.Mvc.class, WebUi.class})
class WebUiTest {
  @EnableWebMvc
  static class Mvc {}

  MockMvc mvc;

  @BeforeEach
  void mvc(WebApplicationContext context) {
    mvc = MockMvcBuilders.webAppContextSetup(context).build();
  }

  private String body(String path) throws Exception {
    return mvc.perform(get(path)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
  }

  @Test
  void deepLinksGetTheAppShell() throws Exception {
    mvc.perform(get("/ui/")).andExpect(forwardedUrl("/ui/index.html"));
    String shell = body("/ui/index.html");
    assertThat(shell).contains("<div id=\"root\"></div>");
    assertThat(body("/ui/jobs")).isEqualTo(shell);
    assertThat(body("/ui/job?jobKey=prod/etl/a%20b")).isEqualTo(shell);
    assertThat(body("/ui/run/some/nested/path")).isEqualTo(shell);
    mvc.perform(get("/ui/jobs")).andExpect(header().string("Cache-Control", "no-cache"));
  }

  @Test
  void bundlesAreServedWithALongCacheAndMissingOnesAre404() throws Exception {
    Matcher m = Pattern.compile("src=\"/ui/(assets/[^\"]+\\.js)\"").matcher(body("/ui/index.html"));
    assertThat(m.find()).as("the shell names its bundle").isTrue();
    String js = mvc.perform(get("/ui/" + m.group(1))).andExpect(status().isOk())
        .andExpect(header().string("Cache-Control", "max-age=31536000, public, immutable"))
        .andReturn().getResponse().getContentAsString();
    assertThat(js.length()).isGreaterThan(10_000);
    mvc.perform(get("/ui/assets/no-such-bundle.js")).andExpect(status().isNotFound());
  }

  @Test
  void rootRedirectsToTheUi() throws Exception {
    mvc.perform(get("/")).andExpect(status().is3xxRedirection()).andExpect(redirectedUrl("/ui/"));
  }
}
