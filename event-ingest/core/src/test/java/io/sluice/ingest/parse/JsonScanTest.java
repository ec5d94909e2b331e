package io.sluice.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.ingest.Fixtures;
import io.sluice.ingest.eventlog.ReadReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class JsonScanTest {
  private static final ObjectMapper TREE = new ObjectMapper();

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static int doc(String s) {
    byte[] b = utf8(s);
    return JsonScan.document(b, 0, b.length);
  }

  private static boolean jacksonAccepts(byte[] b) {
    try (var p = SparkEventParser.FACTORY.createParser(b)) {
      while (p.nextToken() != null) {
        // tokenise everything
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static List<byte[]> realLines() throws IOException {
    return Files.readAllLines(Fixtures.plainLog(), StandardCharsets.UTF_8).stream()
        .map(JsonScanTest::utf8)
        .collect(Collectors.toList());
  }

  @Test
  void acceptsStrictJson() {
    for (String ok :
        List.of(
            "{}",
            "[]",
            " { } ",
            "\t[1,\r\n2 ]\n",
            "0",
            "-0",
            "-12.5e+3",
            "1E-2",
            "0.0",
            "true",
            "false",
            "null",
            "\"\"",
            "{\"a\":{\"b\":[[],{},[{}]]},\"c\":null}",
            "\"brackets { [ ] } and \\\" quote inside\"",
            "{\"k\\\"}\":\"]}\\\\\"}",
            "\"esc \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"",
            "\"h\u00e9llo \u4e16\u754c \ud83d\ude00\"",
            "{\"a\" : 1 , \"b\" :[ true , false ] }",
            "\"a long string that is longer than eight bytes, twice over\"")) {
      assertThat(doc(ok)).as(ok).isEqualTo(utf8(ok).length);
      assertThat(jacksonAccepts(utf8(ok))).as(ok).isTrue();
    }
  }

  @Test
  void rejectsWhatJacksonRejects() {
    for (String bad :
        List.of(
            "",
            " ",
            "{",
            "}",
            "{]",
            "[}",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "[1,]",
            "[,1]",
            "{a:1}",
            "{'a':1}",
            "[01]",
            "[1.]",
            "[.5]",
            "[+1]",
            "[1e]",
            "[-]",
            "[tru]",
            "[truex]",
            "[nul]",
            "[NaN]",
            "{\"a\":1}}",
            "{\"a\":1} x",
            "[1 2]",
            "{\"a\" 1}",
            "\"\\x\"",
            "\"\\u12G4\"",
            "\"tab\there\"",
            "\"nl\nhere\"",
            "[1]/*c*/",
            "{\"a\":1\u000b}",
            "\"unterminated",
            "[\"a\",",
            "{\"a\":[1,{\"b\":\"c\"}]")) {
      assertThat(doc(bad)).as(bad).isNegative();
      assertThat(jacksonAccepts(utf8(bad)) && !bad.isBlank()).as("Jackson on " + bad).isFalse();
    }
  }

  @Test
  void truncatedInputIsTruncatedAtEveryCut() throws IOException {
    byte[] line =
        realLines().stream()
            .filter(l -> new String(l, StandardCharsets.UTF_8).contains("TaskEnd"))
            .findFirst()
            .orElseThrow();
    // add escapes, non-ASCII and nested brackets inside strings so that cuts land inside all of
    // them
    String extra =
        ",\"x\":[\"\u00e9\u4e16\ud83d\ude00\",\"a\\\"b\\\\\",\"\\u0041{[}]\",-1.5e-7,true,false,null]}";
    byte[] b = Arrays.copyOf(line, line.length - 1 + utf8(extra).length);
    System.arraycopy(utf8(extra), 0, b, line.length - 1, utf8(extra).length);
    assertThat(JsonScan.document(b, 0, b.length)).isEqualTo(b.length);
    for (int cut = 1; cut < b.length; cut++) {
      assertThat(JsonScan.document(b, 0, cut)).as("cut at " + cut).isEqualTo(JsonScan.TRUNCATED);
    }
  }

  @Test
  void invalidUtf8IsRejectedInsideAndOutsideStrings() {
    byte[][] bad = {
      {'"', (byte) 0xC0, (byte) 0x80, '"'}, // overlong NUL
      {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'}, // surrogate
      {'"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'}, // above U+10FFFF
      {'"', (byte) 0xE4, (byte) 0xB8, '"'}, // cut short by the quote
      {'"', (byte) 0x80, '"'}, // lone continuation byte
      {'"', 'a', 'b', 'c', 'd', 'e', 'f', 'g', (byte) 0xFF, '"'}, // after eight plain bytes
      {'[', (byte) 0xC3, (byte) 0xA9, ']'}, // valid UTF-8 but outside a string
    };
    for (byte[] b : bad) {
      assertThat(JsonScan.document(b, 0, b.length))
          .as(Arrays.toString(b))
          .isEqualTo(JsonScan.INVALID);
    }
  }

  @Test
  void limitsAreTighterThanJacksons() {
    assertThat(doc("[".repeat(JsonScan.MAX_DEPTH) + "]".repeat(JsonScan.MAX_DEPTH))).isPositive();
    assertThat(doc("[".repeat(JsonScan.MAX_DEPTH + 1) + "]".repeat(JsonScan.MAX_DEPTH + 1)))
        .isNegative();
    assertThat(
            doc("{\"a\":" + "[".repeat(JsonScan.MAX_DEPTH) + "]".repeat(JsonScan.MAX_DEPTH) + "}"))
        .isNegative();
    assertThat(doc("1".repeat(JsonScan.MAX_NUMBER_CHARS))).isPositive();
    assertThat(doc("1".repeat(JsonScan.MAX_NUMBER_CHARS + 1))).isNegative();
    assertThat(doc("{\"" + "k".repeat(JsonScan.MAX_NAME_BYTES + 1) + "\":1}")).isNegative();
    assertThat(doc("[\"" + "k".repeat(JsonScan.MAX_NAME_BYTES + 1) + "\"]")).isPositive();
  }

  /**
   * Every real line, and thousands of damaged copies: whatever the scan accepts, Jackson accepts.
   */
  @Test
  void scanAgreesWithJacksonOnRealAndDamagedLines() throws IOException {
    Random rnd = new Random(42);
    byte[] specials = utf8("{}[]\",:\\ 0-.eEtfn\u00e9");
    int accepted = 0;
    int rejected = 0;
    for (byte[] line : realLines()) {
      assertThat(JsonScan.document(line, 0, line.length)).isEqualTo(line.length);
      for (int k = 0; k < 20; k++) {
        byte[] b = line.clone();
        int at = rnd.nextInt(b.length);
        switch (k % 3) {
          case 0 -> b[at] = specials[rnd.nextInt(specials.length)];
          case 1 -> b = concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, at + 1, b.length));
          default -> b[at] = (byte) rnd.nextInt(256);
        }
        boolean scan = JsonScan.document(b, 0, b.length) == b.length;
        boolean jackson = jacksonAccepts(b) && Utf8.isValid(b);
        assertThat(scan).as(new String(b, StandardCharsets.UTF_8)).isEqualTo(jackson);
        if (scan) {
          accepted++;
        } else {
          rejected++;
        }
      }
    }
    assertThat(accepted).isPositive();
    assertThat(rejected).isPositive();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static final JsonScan.Keep KEEP =
      JsonScan.Keep.keys("a", "c").with("n", JsonScan.Keep.keys("x"));

  private static String pruned(String json) {
    byte[] b = utf8(json);
    JsonScan.Cuts cuts = new JsonScan.Cuts();
    assertThat(JsonScan.pruneDocument(b, 0, b.length, KEEP, cuts)).as(json).isEqualTo(b.length);
    return new String(cuts.apply(b, 0, b.length), StandardCharsets.UTF_8);
  }

  @Test
  void pruningKeepsOnlyTheListedKeys() {
    assertThat(pruned("{\"a\":1,\"b\":2,\"c\":3}")).isEqualTo("{\"a\":1,\"c\":3}");
    assertThat(pruned("{\"b\":[1,{\"a\":2}],\"a\":1}")).isEqualTo("{\"a\":1}");
    assertThat(pruned("{\"b\":1,\"d\":2,\"c\":3,\"e\":4}")).isEqualTo("{\"c\":3}");
    assertThat(pruned("{\"b\":1,\"d\":{}}")).isEqualTo("{}");
    assertThat(pruned("{ \"b\" : 1 , \"a\" : 2 }")).isEqualTo("{ \"a\" : 2 }");
    assertThat(pruned("{\"n\":{\"y\":[1],\"x\":{\"y\":1}},\"z\":\"}\"}"))
        .isEqualTo("{\"n\":{\"x\":{\"y\":1}}}");
    // the first kept pair comes after cut ones and is itself pruned: cuts stay in order
    assertThat(pruned("{\"b\":1,\"n\":{\"y\":2,\"x\":3,\"z\":4},\"a\":5}"))
        .isEqualTo("{\"n\":{\"x\":3},\"a\":5}");
    assertThat(pruned("{\"b\":1,\"d\":2,\"n\":{\"y\":2,\"x\":3}}")).isEqualTo("{\"n\":{\"x\":3}}");
    // a kept key whose value is not an object is kept verbatim
    assertThat(pruned("{\"n\":[{\"y\":1}]}")).isEqualTo("{\"n\":[{\"y\":1}]}");
    // a key written with an escape may decode to a kept key: never cut
    assertThat(pruned("{\"\\u0061\":1,\"b\":2}")).isEqualTo("{\"\\u0061\":1}");
    // an invalid value in a pair that would be cut still fails the scan
    byte[] bad = utf8("{\"a\":1,\"b\":[1,]}");
    assertThat(JsonScan.pruneDocument(bad, 0, bad.length, KEEP, new JsonScan.Cuts())).isNegative();
  }

  @Test
  void prunedRealTaskEndsEqualTheTreeWithoutTheOtherKeys() throws IOException {
    JsonScan.Keep keep =
        JsonScan.Keep.keys("Event", "Stage ID")
            .with("Task Info", JsonScan.Keep.keys("Task ID", "Finish Time"));
    int n = 0;
    for (byte[] line : realLines()) {
      JsonNode tree = TREE.readTree(line);
      if (!"SparkListenerTaskEnd".equals(tree.get("Event").asText())) {
        continue;
      }
      JsonScan.Cuts cuts = new JsonScan.Cuts();
      assertThat(JsonScan.pruneDocument(line, 0, line.length, keep, cuts)).isEqualTo(line.length);
      ObjectNode expected = (ObjectNode) tree;
      expected.retain("Event", "Stage ID", "Task Info");
      ((ObjectNode) expected.get("Task Info")).retain("Task ID", "Finish Time");
      assertThat(TREE.readTree(cuts.apply(line, 0, line.length))).isEqualTo(expected);
      n++;
    }
    assertThat(n).isPositive();
  }

  /**
   * The parser's fast path and its whole-line Jackson path give the same events, problems and
   * failures.
   */
  @Test
  void fastPathEqualsJacksonPathOnRealAndDamagedLines() throws IOException {
    Random rnd = new Random(7);
    byte[] specials = utf8("{}[]\",:\\ 0-9tn\u00e9");
    ReadReport fastReport = new ReadReport();
    ReadReport slowReport = new ReadReport();
    SparkEventParser fast = new SparkEventParser(fastReport);
    SparkEventParser slow = new SparkEventParser(slowReport);
    int fastTaken = 0;
    for (byte[] line : realLines()) {
      for (int k = 0; k < 12; k++) {
        byte[] b = line.clone();
        if (k > 0) {
          int at = 10 + rnd.nextInt(b.length - 10); // keep the {"Event":" prefix
          b[at] = k % 2 == 0 ? specials[rnd.nextInt(specials.length)] : (byte) rnd.nextInt(256);
        }
        Object f = outcome(() -> fast.parse(b));
        Object s = outcome(() -> slow.parseWithJackson(b));
        assertThat(f).as(new String(b, StandardCharsets.UTF_8)).isEqualTo(s);
        if (new SparkEventParser().parseFast(b) != null) {
          fastTaken++;
        }
      }
    }
    assertThat(fastTaken).isPositive();
    assertThat(fastReport.wrongTypedFields()).isEqualTo(slowReport.wrongTypedFields());
    assertThat(fastReport.missingFields()).isEqualTo(slowReport.missingFields());
    assertThat(fastReport.clampedNumbers()).isEqualTo(slowReport.clampedNumbers());
  }

  private static Object outcome(java.util.concurrent.Callable<SparkEvent> c) {
    try {
      return c.call();
    } catch (MalformedEventException e) {
      return e.kind();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
