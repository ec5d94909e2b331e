package io.sluice.rules.builtin;

import io.sluice.config.Unit;
import io.sluice.model.AppRun;
import io.sluice.model.Diagnosis;
import io.sluice.model.Recommendation;
import io.sluice.model.Severity;
import io.sluice.model.StageProfile;
import io.sluice.rules.Grades;
import io.sluice.rules.RuleSettings;
import io.sluice.rules.RunConf;
import io.sluice.rules.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SHUFFLE_CODEC: a large shuffle compressed with a fast, weak codec where zstd would cut the bytes
 * moved.
 */
public final class ShuffleCodec extends BuiltinRule {
  public static final String ID = "SHUFFLE_CODEC";
  static final Set<String> WEAK =
      Set.of(
          "lz4",
          "snappy",
          "lzf",
          "org.apache.spark.io.lz4compressioncodec",
          "org.apache.spark.io.snappycompressioncodec",
          "org.apache.spark.io.lzfcompressioncodec");
  static final Grades WRITTEN =
      Grades.rising(
          "shuffleWriteBytes",
          Unit.BYTES,
          "the run's total shuffle bytes written",
          Sizes.GIB,
          10 * Sizes.GIB,
          100 * Sizes.GIB,
          Sizes.TIB,
          1,
          Sizes.TIB * 1024 * 1024);

  public ShuffleCodec() {
    this(null);
  }

  private ShuffleCodec(RuleSettings s) {
    super(ID, declare(WRITTEN), s, ShuffleCodec::new);
  }

  @Override
  public String description() {
    return "A large shuffle compressed with lz4 (or snappy/lzf) where zstd would cut the bytes written and fetched.";
  }

  @Override
  public String documentation() {
    return "Applies when shuffle compression is on (`spark.shuffle.compress`, default true) and "
        + "`spark.io.compression.codec` (default lz4) is lz4, snappy or lzf; severity comes from the run's total "
        + "`shuffleWriteBytes`. zstd usually writes fewer bytes than lz4, at a higher CPU cost, "
        + "so the shuffle service reads and sends fewer bytes.\n\n"
        + "Recommends `spark.io.compression.codec=zstd` (a submit-time setting).";
  }

  @Override
  Diagnosis evaluate(AppRun run, RunConf conf) {
    if (!conf.shuffleCompress() || !WEAK.contains(conf.codec())) {
      return none();
    }
    long written = 0;
    long records = 0;
    long writeMs = 0;
    List<Integer> stages = new ArrayList<>();
    for (StageProfile s : run.stages()) {
      if (s.shuffleWriteBytes() > 0) {
        written += s.shuffleWriteBytes();
        records += s.shuffleWriteRecords();
        writeMs += s.shuffleWriteTimeMs();
        stages.add(s.stageId());
      }
    }
    Severity sev = settings.grade(WRITTEN, written);
    if (sev == Severity.NONE) {
      return none();
    }
    Map<String, Double> ev = evidence();
    ev.put("shuffleWriteBytes", (double) written);
    ev.put("shuffleWriteRecords", (double) records);
    ev.put("bytesPerRecord", records == 0 ? 0 : (double) written / records);
    ev.put("shuffleWriteTimeMs", (double) writeMs);
    ev.put("writingStages", (double) stages.size());
    String summary =
        String.format(
            Locale.ROOT,
            "%s of shuffle data (%d records, %.0f B each) written with %s",
            bytes(written),
            records,
            records == 0 ? 0.0 : (double) written / records,
            conf.codec());
    return diagnosis(
        sev,
        stages,
        summary,
        ev,
        List.of(
            new Recommendation(
                RunConf.CODEC,
                "zstd",
                "zstd usually compresses shuffle blocks smaller than "
                    + conf.codec()
                    + " (for more CPU): fewer bytes to write, "
                    + "serve from the shuffle service and fetch for "
                    + bytes(written))));
  }
}
