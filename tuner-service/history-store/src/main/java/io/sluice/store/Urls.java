package io.sluice.store;

import java.util.regex.Pattern;

/** URL helpers: never print passwords. */
final class Urls {
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");
  private static final Pattern USERINFO = Pattern.compile("//([^/@:]+):[^/@]*@");

  private Urls() {}

  static String redact(String url) {
    if (url == null) {
      return "null";
    }
    return USERINFO.matcher(PASSWORD.matcher(url).replaceAll("$1***")).replaceAll("//$1:***@");
  }
}
