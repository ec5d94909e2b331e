package io.sluice.bench.throttlesim.ess;

import java.util.SplittableRandom;

/**
 * Service time of one random read of a shuffle block from a 7,200 rpm HDD: seek (lognormal, median
 * {@code seekMedianMs}, log-sd {@code seekSigma}, clipped to [{@code seekMinMs}, {@code
 * seekMaxMs}]) + rotational latency (uniform over one revolution) + transfer at the media rate.
 * With the defaults a small block costs about 9.8 ms on average (5.7 ms seek + 4.2 ms rotation),
 * the figure an emulated slow disk was measured with and the usual 4–15 ms range of such drives.
 * README.md justifies the numbers.
 */
public record HddModel(
    double seekMedianMs,
    double seekSigma,
    double seekMinMs,
    double seekMaxMs,
    double rpm,
    double mediaMBps) {

  public static HddModel defaults() {
    return new HddModel(5.0, 0.5, 1.0, 25.0, 7200, 150);
  }

  /** One read's service time in nanoseconds. */
  public long sampleNanos(long bytes, SplittableRandom rnd) {
    double seek = seekMedianMs * Math.exp(seekSigma * gaussian(rnd));
    seek = Math.max(seekMinMs, Math.min(seekMaxMs, seek));
    double rotation = rnd.nextDouble() * 60_000.0 / rpm;
    double transfer = bytes / (mediaMBps * 1_000_000.0) * 1000.0;
    return (long) ((seek + rotation + transfer) * 1_000_000.0);
  }

  /** Mean service time of a read of {@code bytes} (ignoring the clipping), in nanoseconds. */
  public long meanNanos(long bytes) {
    double seek = seekMedianMs * Math.exp(seekSigma * seekSigma / 2);
    return (long) ((seek + 30_000.0 / rpm + bytes / (mediaMBps * 1000.0)) * 1_000_000.0);
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
    double u1 = 1.0 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
