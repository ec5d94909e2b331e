package io.sluice.build;

import io.sluice.config.Catalogue;
import io.sluice.config.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes {@code docs/configuration.md} from the components' catalogues ({@link Catalogues}) and
 * reads it back: the keys it documents per component, so a test can name a declared setting the
 * page lacks and a documented one that no component declares. {@code ConfigurationDocTest} fails
 * when the committed page differs from what this generates.
 */
public final class ConfigurationDoc {
  /** How to regenerate the committed page (printed by the golden test when it is stale). */
  public static final String REGENERATE =
      "mvn -q -B -pl deploy/build-support -am test -Dtest=ConfigurationDocTest "
          + "-Dsurefire.failIfNoSpecifiedTests=false -Dsluice.config.doc.write=true";

  private static final Pattern ROW_KEY = Pattern.compile("(?m)^\\| `([^`]+)` \\|");

  private ConfigurationDoc() {}

  public static String generate(List<Catalogue> catalogues) {
    StringBuilder b = new StringBuilder();
    b.append("# Configuration reference\n\n")
        .append(
            "<!-- Generated from the setting declarations by io.sluice.build.ConfigurationDoc; do not ")
        .append("edit.\n     Regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append(
            "Every setting of every component is declared once, next to the code that reads it, as an ")
        .append(
            "`io.sluice.config.Setting`: key, unit, default, valid range and meaning. This page is generated ")
        .append(
            "from those declarations. A component reads its settings when it starts: a key under its prefix ")
        .append(
            "that it does not declare, or a value that does not parse or lies outside its range, stops it with ")
        .append(
            "a message naming the key and the value, so a typo never runs silently with a default.\n\n")
        .append("| component | settings |\n|---|---|\n");
    for (Catalogue c : catalogues) {
      b.append("| [")
          .append(c.component())
          .append("](#")
          .append(anchor(c.component()))
          .append(") | ")
          .append(c.settings().size())
          .append(" |\n");
    }
    for (Catalogue c : catalogues) {
      b.append("\n## ")
          .append(c.component())
          .append("\n\n")
          .append(c.source())
          .append("\n\n")
          .append("| key | default | unit | valid | meaning |\n|---|---|---|---|---|\n");
      for (Setting<?> s : c.settings()) {
        b.append("| `")
            .append(s.key())
            .append("` | ")
            .append(s.defaultText().isEmpty() ? "(empty)" : cell(s.defaultText()))
            .append(" | ")
            .append(s.unit().label())
            .append(" | ")
            .append(cell(s.range()))
            .append(" | ")
            .append(cell(s.description()))
            .append(" |\n");
      }
    }
    return b.toString();
  }

  /** The keys a page documents, per section title, in page order. */
  public static Map<String, List<String>> documentedKeys(String page) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String[] sections = page.split("\n## ");
    for (int i = 1; i < sections.length; i++) {
      int eol = sections[i].indexOf('\n');
      String title = (eol < 0 ? sections[i] : sections[i].substring(0, eol)).trim();
      List<String> keys = new ArrayList<>();
      Matcher r = ROW_KEY.matcher(sections[i]);
      while (r.find()) {
        keys.add(r.group(1));
      }
      out.put(title, keys);
    }
    return out;
  }

  /**
   * What differs between the declarations and a page: declared settings it does not document and
   * documented keys nothing declares (each naming the component), empty when they agree.
   */
  public static List<String> mismatches(List<Catalogue> catalogues, String page) {
    Map<String, List<String>> documented = documentedKeys(page);
    List<String> problems = new ArrayList<>();
    for (Catalogue c : catalogues) {
      List<String> keys = documented.getOrDefault(c.component(), List.of());
      for (Setting<?> s : c.settings()) {
        if (!keys.contains(s.key())) {
          problems.add(
              c.component() + ": declared setting " + s.key() + " is missing from the page");
        }
      }
      for (String k : keys) {
        if (c.find(k) == null) {
          problems.add(c.component() + ": documented key " + k + " is not declared");
        }
      }
    }
    for (String section : documented.keySet()) {
      if (catalogues.stream().noneMatch(c -> c.component().equals(section))) {
        problems.add("section " + section + " documents a component that declares nothing");
      }
    }
    return problems;
  }

  /** GitHub's anchor of a heading: lower case, spaces to dashes, other punctuation dropped. */
  static String anchor(String title) {
    return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-');
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
