package io.sluice.flink;

import io.sluice.ingest.fold.AppFolder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer for {@link AttemptState}, built on {@link AppFolder#writeTo}/{@link
 * AppFolder#readFrom}.
 *
 * <p>Format (version 1): {@code int version, long maxSeq, long endedAt, long touchedAt, int n, n
 * bytes of AppFolder.writeTo}. The folder is length-prefixed so the state can be copied, skipped or
 * migrated without understanding the folder's own layout, and a folder that reads more or less than
 * it wrote is detected.
 */
public final class AttemptStateSerializer extends TypeSerializerSingleton<AttemptState> {
  private static final long serialVersionUID = 1L;
  public static final AttemptStateSerializer INSTANCE = new AttemptStateSerializer();
  static final int FORMAT_VERSION = 1;

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public AttemptState createInstance() {
    return null;
  }

  /**
   * A deep copy: the heap backend copies state for asynchronous snapshots, so this must not share
   * the folder.
   */
  @Override
  public AttemptState copy(AttemptState from) {
    if (from == null) {
      return null;
    }
    return new AttemptState(
        from.maxSeq, from.endedAt, from.touchedAt, readFolder(folderBytes(from.folder)));
  }

  @Override
  public AttemptState copy(AttemptState from, AttemptState reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(AttemptState record, DataOutputView target) throws IOException {
    byte[] folder = folderBytes(record.folder);
    target.writeInt(FORMAT_VERSION);
    target.writeLong(record.maxSeq);
    target.writeLong(record.endedAt);
    target.writeLong(record.touchedAt);
    target.writeInt(folder.length);
    target.write(folder);
  }

  @Override
  public AttemptState deserialize(DataInputView source) throws IOException {
    int version = source.readInt();
    if (version != FORMAT_VERSION) {
      throw new IOException(
          "unknown AttemptState format version "
              + version
              + " (this build reads "
              + FORMAT_VERSION
              + ")");
    }
    long maxSeq = source.readLong();
    long endedAt = source.readLong();
    long touchedAt = source.readLong();
    byte[] folder = new byte[source.readInt()];
    source.readFully(folder);
    return new AttemptState(maxSeq, endedAt, touchedAt, readFolder(folder));
  }

  @Override
  public AttemptState deserialize(AttemptState reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    target.writeInt(source.readInt());
    target.writeLong(source.readLong());
    target.writeLong(source.readLong());
    target.writeLong(source.readLong());
    int n = source.readInt();
    target.writeInt(n);
    target.write(source, n);
  }

  @Override
  public TypeSerializerSnapshot<AttemptState> snapshotConfiguration() {
    return new Snapshot();
  }

  static byte[] folderBytes(AppFolder folder) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        folder.writeTo(out);
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialise AppFolder", e);
    }
  }

  static AppFolder readFolder(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      AppFolder folder = AppFolder.readFrom(in);
      if (in.available() != 0) {
        throw new IOException(
            "AppFolder.readFrom left " + in.available() + " of " + bytes.length + " bytes unread");
      }
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read AppFolder state", e);
    }
  }

  /** Serializer snapshot: no parameters, so restoring simply yields the singleton. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<AttemptState> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
