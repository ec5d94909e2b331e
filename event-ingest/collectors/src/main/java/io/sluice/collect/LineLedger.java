package io.sluice.collect;

import io.sluice.ingest.envelope.EnvelopeBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outcomes of the lines of one log sent in one pass, from line {@code start} on. A line is done
 * when Kafka acknowledged it or when it can never be published (larger than the producer or the
 * broker accepts: skipped and counted). A batch of several lines that Kafka refuses as too large is
 * not skipped: it waits in {@link #takeRefused()} to be sent again in halves, down to single lines.
 * {@link #frontier()} is the number of lines from the log's start that are all done: the offset
 * that may be saved. Any other failure (Kafka unreachable, delivery timeout) stops the pass; the
 * next pass resends from the frontier, so each line reaches the topic once.
 */
final class LineLedger implements KafkaPublisher.Receipts {
  private static final Logger LOG = LoggerFactory.getLogger(LineLedger.class);
  private final String log;
  private final AtomicLong skippedCounter;
  private long frontier;
  private final TreeSet<Long> doneAhead = new TreeSet<>();
  private Exception failure;
  private final List<Refused> refused = new ArrayList<>();

  /** A batch record Kafka refused as too large, with the key it was sent with. */
  record Refused(byte[] key, EnvelopeBatch batch) {}

  /**
   * @param log the log's name, for messages
   * @param start the first line of this pass (the saved offset)
   * @param skippedCounter counts the lines skipped because Kafka can never take them
   */
  LineLedger(String log, long start, AtomicLong skippedCounter) {
    this.log = log;
    this.frontier = start;
    this.skippedCounter = skippedCounter;
  }

  @Override
  public synchronized void acked(long index) {
    done(index);
  }

  @Override
  public synchronized void failed(long index, Exception e) {
    if (e instanceof RecordTooLargeException) {
      skippedCounter.incrementAndGet();
      LOG.warn("skipping line {} of {}: Kafka cannot take it ({})", index, log, e.getMessage());
      done(index);
    } else if (failure == null) {
      failure = e;
    }
  }

  /**
   * The receipts of one record that carries lines {@code first..last} (a batch): its outcome is
   * each line's. A batch Kafka can never take skips all its lines, counted one by one.
   */
  KafkaPublisher.Receipts lines(long first, long last) {
    return batch(first, last, null, null);
  }

  /**
   * The receipts of {@code sent}, a batch record sent with {@code key}: its outcome is each line's,
   * except that a batch of more than one line that Kafka refuses as too large is kept for {@link
   * #takeRefused()} instead of skipped.
   */
  KafkaPublisher.Receipts batch(byte[] key, EnvelopeBatch sent) {
    return batch(sent.firstSeq(), sent.lastSeq(), key, sent);
  }

  private KafkaPublisher.Receipts batch(long first, long last, byte[] key, EnvelopeBatch sent) {
    return new KafkaPublisher.Receipts() {
      @Override
      public void acked(long index) {
        synchronized (LineLedger.this) {
          for (long i = first; i <= last; i++) {
            done(i);
          }
        }
      }

      @Override
      public void failed(long index, Exception e) {
        synchronized (LineLedger.this) {
          if (e instanceof RecordTooLargeException && sent != null && sent.size() > 1) {
            refused.add(new Refused(key, sent));
          } else if (e instanceof RecordTooLargeException) {
            skippedCounter.addAndGet(last - first + 1);
            LOG.warn(
                "skipping lines {}..{} of {}: Kafka cannot take their record ({})",
                first,
                last,
                log,
                e.getMessage());
            for (long i = first; i <= last; i++) {
              done(i);
            }
          } else if (failure == null) {
            failure = e;
          }
        }
      }
    };
  }

  /** The refused batches to send again in pieces (see {@link #batch}); empties the list. */
  synchronized List<Refused> takeRefused() {
    List<Refused> out = new ArrayList<>(refused);
    refused.clear();
    return out;
  }

  /** Marks a line that is not sent (not an event) as done. */
  synchronized void pass(long index) {
    done(index);
  }

  private void done(long index) {
    if (index < frontier) {
      return;
    }
    doneAhead.add(index);
    while (!doneAhead.isEmpty() && doneAhead.first() == frontier) {
      doneAhead.pollFirst();
      frontier++;
    }
  }

  synchronized long frontier() {
    return frontier;
  }

  /** The first failure that is not the record's own fault, or null. */
  synchronized Exception failure() {
    return failure;
  }
}
