package io.sluice.bench.flink;

import java.util.AbstractList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real event log blown up into a run of the size the fleet's applications have (about 10^4 task
 * events each, where the fixture logs have 10^2 to 10^3): every task start and task end is repeated
 * {@code factor} times in place, copy {@code c} of task {@code n} getting task id, index and
 * partition id {@code n * factor + c}; stage and job events say {@code factor} times as many tasks
 * and partitions. Every other event is kept as it is, so the run keeps its stages, jobs,
 * environment, failures and end, and its metrics keep their spread across tasks (each task's
 * figures appear {@code factor} times). Lines are rewritten when read, so a large run costs no
 * memory beyond its index.
 */
final class BigRuns {
  private static final Pattern TASK_ID = Pattern.compile("\"(Task ID|Index|Partition ID)\":(\\d+)");
  private static final Pattern COUNTS =
      Pattern.compile("\"(Number of Tasks|Number of Partitions)\":(\\d+)");

  private BigRuns() {}

  /** True for the events Spark writes once per task attempt start and end. */
  static boolean isTaskEvent(String line) {
    return line.startsWith("{\"Event\":\"SparkListenerTaskStart\"")
        || line.startsWith("{\"Event\":\"SparkListenerTaskEnd\"");
  }

  /** Task events of a log. */
  static int taskEvents(List<String> lines) {
    int n = 0;
    for (String l : lines) {
      if (isTaskEvent(l)) {
        n++;
      }
    }
    return n;
  }

  /** The factor that brings a log's task events nearest to {@code perRun} (at least 1). */
  static int factorFor(List<String> lines, long perRun) {
    int tasks = taskEvents(lines);
    return tasks == 0 ? 1 : (int) Math.max(1, Math.round((double) perRun / tasks));
  }

  /** The lines of the blown-up run (a view over {@code lines}; {@code factor} 1: as they are). */
  static List<String> expand(List<String> lines, int factor) {
    if (factor < 1) {
      throw new IllegalArgumentException("factor must be at least 1, got " + factor);
    }
    if (factor == 1) {
      return lines;
    }
    int total = lines.size() + (factor - 1) * taskEvents(lines);
    int[] source = new int[total];
    int[] copyOf = new int[total];
    int k = 0;
    for (int i = 0; i < lines.size(); i++) {
      int copies = isTaskEvent(lines.get(i)) ? factor : 1;
      for (int c = 0; c < copies; c++) {
        source[k] = i;
        copyOf[k++] = c;
      }
    }
    return new AbstractList<>() {
      @Override
      public String get(int index) {
        int i = source[index];
        String line = lines.get(i);
        if (isTaskEvent(line)) {
          return scale(TASK_ID, line, factor, copyOf[index]);
        }
        return line.startsWith("{\"Event\":\"SparkListenerStage")
                || line.startsWith("{\"Event\":\"SparkListenerJobStart\"")
            ? scale(COUNTS, line, factor, 0)
            : line;
      }

      @Override
      public int size() {
        return total;
      }
    };
  }

  /** Every number of {@code p} (group 2) in {@code line} replaced by {@code n * factor + add}. */
  static String scale(Pattern p, String line, int factor, int add) {
    Matcher m = p.matcher(line);
    StringBuilder sb = new StringBuilder(line.length() + 16);
    while (m.find()) {
      long n = Long.parseLong(m.group(2));
      m.appendReplacement(sb, "\"" + m.group(1) + "\":" + (n * factor + add));
    }
    m.appendTail(sb);
    return sb.toString();
  }
}
