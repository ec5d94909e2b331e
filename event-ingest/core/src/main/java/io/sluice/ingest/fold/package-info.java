/**
 * Folding Spark events into {@link io.sluice.model.StageProfile}s and {@link
 * io.sluice.model.AppRun}s.
 *
 * <p>Conventions beyond the StageProfile javadoc:
 *
 * <ul>
 *   <li>A stage attempt is profiled when at least one of its task ends was seen; stages Spark
 *       skipped (in a JobStart's stage infos but never run) are not.
 *   <li>Medians are lower medians (the element at index (n-1)/2 of the sorted values, Spark's UI
 *       convention). {@code readSkew} = max / max(median, 1 byte) when the stage read shuffle data,
 *       else 0.
 *   <li>{@code mapPartitions} sums, over the stage's "Parent IDs", each parent's partition count:
 *       the "Number of Partitions" of the parent's own RDD (its first "RDD Info"), which is the
 *       number of map outputs of its shuffle even when a parent attempt re-ran only some tasks;
 *       {@code numTasks} when absent. Parents Spark skipped are known from JobStart. {@code
 *       reducePartitions} is the attempt's numTasks when it has parents, else 0.
 *   <li>Shuffle write time is summed in nanoseconds and converted to milliseconds once (floor).
 *   <li>Sums saturate at Long.MAX_VALUE instead of overflowing.
 *   <li>Spark's stage-level {@code internal.metrics.*} accumulables also include tasks that ended
 *       with ExceptionFailure or TaskKilled (the metrics accumulators count failed values);
 *       profiles follow the contract (successful tasks only), so the two differ exactly by those
 *       tasks' metrics. FetchFailed task ends contribute to neither. Verified on real Spark 3.5.7
 *       and 4.0.1 logs (ShuffleSumsMatchSparkITCase).
 * </ul>
 */
package io.sluice.ingest.fold;
