package io.sluice.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands on its own: no comment, doc or build file points at a document that is not
 * in it. Fails on references to a design document or a shared folder outside the repository, on
 * issue numbers, and on any {@code *.md} path that resolves neither from the citing file's folder
 * nor from the repository root.
 */
class DocReferencesTest {

  /** Folders that hold build output, installed tools or third-party files, never our own text. */
  private static final Set<String> SKIPPED_DIRS =
      Set.of(
          ".git",
          "target",
          "node_modules",
          ".sluice",
          "dist",
          "results",
          "fixtures",
          ".idea",
          ".vscode");

  private static final Set<String> TEXT_EXTENSIONS =
      Set.of(
          "java",
          "md",
          "xml",
          "sh",
          "yml",
          "yaml",
          "py",
          "ts",
          "tsx",
          "js",
          "properties",
          "sql",
          "json",
          "txt",
          "conf",
          "toml",
          "cfg");

  /**
   * A reference to a design document kept outside the repository, or to a tracker's issue number.
   */
  static final Pattern OUTSIDE =
      Pattern.compile(
          "\\bDESIGN\\b(?:\\s*§?\\s*\\d|\\.md)|\\.\\./shared/|/work/share[d]|\\bissues?\\s+#?\\d+|\\bDESIGN\\s+§",
          Pattern.CASE_INSENSITIVE);

  /**
   * A path to a Markdown document: in a link target, in backticks or in plain text. In Java only
   * comments are checked, and a bare lower-case name ({@code report.md}) is taken for a file a
   * script writes.
   */
  static final Pattern MD_PATH =
      Pattern.compile("(?<![\\w/.:-])((?:\\.{1,2}/)*(?:[\\w.-]+/)*[\\w-]+\\.md)\\b");

  @Test
  void noReferenceLeavesTheRepository() throws IOException {
    Path root = repositoryRoot();
    List<String> problems = new ArrayList<>();
    for (Path file : textFiles(root)) {
      problems.addAll(problemsIn(root, file));
    }
    assertThat(problems).as("references to documents that are not in the repository").isEmpty();
  }

  @Test
  void theCheckSeesAMissingDocAndAnOutsideDesign(@org.junit.jupiter.api.io.TempDir Path root)
      throws IOException {
    Files.createDirectories(root.resolve("docs"));
    String present = "docs/present" + ".md";
    Files.writeString(root.resolve(present), "# here\n");
    Path cited = root.resolve("Cited.java");
    // The samples are assembled so that this file does not trip the check itself.
    String design = "DES" + "IGN";
    String shared = "../sha" + "red/";
    String absent = "docs/absent" + ".md";
    Files.writeString(
        cited,
        String.join(
            "\n",
            "// see " + present + " and " + absent,
            "// ("
                + design
                + " 7) and "
                + design
                + " §3, "
                + shared
                + "ENVIRONMENT"
                + ".md, iss"
                + "ue 5",
            "// [link]("
                + present
                + "#anchor) https://example.org/other"
                + ".md, README"
                + ".md, report-1"
                + ".md",
            "String path = \"a/NOTES" + ".md\"; // written by the test"));
    assertThat(problemsIn(root, cited))
        .containsExactly(
            "Cited.java:1: " + absent + " does not exist",
            "Cited.java:2: refers outside the repository: " + design + " 7",
            "Cited.java:2: refers outside the repository: " + design + " §3",
            "Cited.java:2: refers outside the repository: " + shared,
            "Cited.java:2: refers outside the repository: iss" + "ue 5",
            "Cited.java:2: " + shared + "ENVIRONMENT" + ".md does not exist",
            "Cited.java:3: README" + ".md does not exist");
  }

  static List<String> problemsIn(Path root, Path file) {
    List<String> problems = new ArrayList<>();
    List<String> lines = readLines(file);
    if (lines == null) {
      return problems;
    }
    String name = root.relativize(file).toString().replace('\\', '/');
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher outside = OUTSIDE.matcher(line);
      while (outside.find()) {
        problems.add(name + ":" + (i + 1) + ": refers outside the repository: " + outside.group());
      }
      Matcher md = MD_PATH.matcher(line);
      while (md.find() && (!name.endsWith(".java") || isComment(line))) {
        String ref = md.group(1);
        if (!ref.contains("/") && !Character.isUpperCase(ref.charAt(0))) {
          continue; // a bare lower-case name is a file some script writes, not a document of the
          // repository
        }
        if (!Files.exists(file.getParent().resolve(ref).normalize())
            && !Files.exists(root.resolve(ref).normalize())) {
          problems.add(name + ":" + (i + 1) + ": " + ref + " does not exist");
        }
      }
    }
    return problems;
  }

  private static boolean isComment(String line) {
    String t = line.strip();
    return t.startsWith("*") || t.startsWith("//") || t.startsWith("/*");
  }

  /** The file's lines, or null for a file that is not UTF-8 text. */
  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (MalformedInputException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> textFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> !skipped(root, p))
          .filter(Files::isRegularFile)
          .filter(DocReferencesTest::isText)
          .sorted()
          .toList();
    }
  }

  private static boolean skipped(Path root, Path p) {
    for (Path part : root.relativize(p)) {
      if (SKIPPED_DIRS.contains(part.toString())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isText(Path p) {
    String name = p.getFileName().toString();
    int dot = name.lastIndexOf('.');
    if (dot < 0) {
      return p.getParent() != null && p.getParent().endsWith(Path.of("bin"));
    }
    return TEXT_EXTENSIONS.contains(name.substring(dot + 1));
  }

  /**
   * The folder holding the reactor's root pom, found from the module's working directory upwards.
   */
  static Path repositoryRoot() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.exists(pom)
          && Files.readString(pom).contains("<artifactId>sluice-parent</artifactId>")
          && Files.isDirectory(dir.resolve("docs"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no Sluice repository root above " + Path.of("").toAbsolutePath());
  }
}
