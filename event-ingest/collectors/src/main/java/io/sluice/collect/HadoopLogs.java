package io.sluice.collect;

import io.sluice.ingest.eventlog.Codec;
import io.sluice.ingest.eventlog.LineReader;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Event logs on any Hadoop-compatible file system (hdfs://, s3a://, abfs://, viewfs://, or file://
 * when asked to): the direct children of a directory, single files ({@code
 * <app>[.codec][.inprogress]}) and rolling {@code eventlog_v2_<app>} directories (their {@code
 * events_N_*} parts in order; compacted parts are not supported here). Decompression uses
 * event-core's {@link Codec}.
 */
final class HadoopLogs {

  private static final Pattern PART = Pattern.compile("events_(\\d+)_.+");

  private HadoopLogs() {}

  static List<LogSource> discover(URI dir, Configuration conf) throws IOException {
    FileSystem fs = FileSystem.get(dir, conf);
    Path root = new Path(dir);
    List<LogSource> out = new ArrayList<>();
    FileStatus top = fs.getFileStatus(root);
    FileStatus[] children = top.isDirectory() ? fs.listStatus(root) : new FileStatus[] {top};
    for (FileStatus st : children) {
      String name = st.getPath().getName();
      if (name.startsWith(".") || name.startsWith("_") || name.endsWith(".crc")) {
        continue;
      }
      if (st.isDirectory() && name.startsWith("eventlog_v2_")) {
        out.add(rolling(fs, st.getPath(), name.substring("eventlog_v2_".length())));
      } else if (st.isFile()) {
        boolean inProgress = name.endsWith(".inprogress");
        String base = inProgress ? name.substring(0, name.length() - ".inprogress".length()) : name;
        Codec codec = Codec.fromExtension(base);
        if (codec != Codec.PLAIN) {
          base = base.substring(0, base.length() - codec.shortName().length() - 1);
        }
        out.add(new Source(fs, base, List.of(st.getPath()), inProgress, st.getLen()));
      }
    }
    out.sort(Comparator.comparing(LogSource::name));
    return out;
  }

  private static LogSource rolling(FileSystem fs, Path dir, String name) throws IOException {
    TreeMap<Integer, Path> parts = new TreeMap<>();
    long size = 0;
    boolean sawStatus = false;
    boolean inProgress = false;
    for (FileStatus f : fs.listStatus(dir)) {
      String fn = f.getPath().getName();
      if (fn.startsWith("appstatus_")) {
        sawStatus = true;
        inProgress |= fn.endsWith(".inprogress");
        continue;
      }
      Matcher m = PART.matcher(fn);
      if (m.matches() && !fn.endsWith(".compact") && f.isFile()) {
        parts.put(Integer.parseInt(m.group(1)), f.getPath());
        size += f.getLen();
      }
    }
    return new Source(fs, name, List.copyOf(parts.values()), inProgress || !sawStatus, size);
  }

  private record Source(FileSystem fs, String name, List<Path> files, boolean inProgress, long size)
      implements LogSource {
    @Override
    public LineReader open(long skipLines) {
      return new Reader(this, skipLines);
    }

    @Override
    public String toString() {
      return files.toString();
    }
  }

  /**
   * Newline-delimited lines across the source's files; an unterminated tail line is not complete.
   */
  private static final class Reader implements LineReader {
    private final Source source;
    private final long skip;
    private int fileIndex = -1;
    private InputStream in;
    private boolean lastFile;
    private long lines;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream(8192);

    Reader(Source source, long skip) {
      this.source = source;
      this.skip = skip;
    }

    private boolean nextFile() throws IOException {
      closeStream();
      fileIndex++;
      if (fileIndex >= source.files().size()) {
        return false;
      }
      Path p = source.files().get(fileIndex);
      lastFile = fileIndex == source.files().size() - 1;
      Codec codec = Codec.fromExtension(p.getName().replace(".inprogress", ""));
      in =
          new java.io.BufferedInputStream(
              codec.decompress(source.fs().open(p), source.inProgress() && lastFile), 64 * 1024);
      return true;
    }

    @Override
    public byte[] next() {
      try {
        while (true) {
          if (in == null && !nextFile()) {
            return null;
          }
          byte[] line = readLine();
          if (line == null) {
            // end of this file: a finished log's last line may lack its newline
            boolean tail = buf.size() > 0 && (!source.inProgress() || !lastFile);
            byte[] rest = tail ? buf.toByteArray() : null;
            buf.reset();
            in.close();
            in = null;
            if (rest != null && countAndKeep(rest)) {
              return rest;
            }
            if (lastFile) {
              return null;
            }
            continue;
          }
          if (countAndKeep(line)) {
            return line;
          }
        }
      } catch (EOFException e) {
        return null; // a compressed stream still being written
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    /** Counts a complete line; true when it is past the skipped ones and not blank. */
    private boolean countAndKeep(byte[] line) {
      lines++;
      if (lines <= skip) {
        return false;
      }
      for (byte b : line) {
        if (b != ' ' && b != '\t' && b != '\r') {
          return true;
        }
      }
      return false;
    }

    private byte[] readLine() throws IOException {
      int b;
      while ((b = in.read()) >= 0) {
        if (b == '\n') {
          byte[] line = buf.toByteArray();
          buf.reset();
          int len = line.length;
          if (len > 0 && line[len - 1] == '\r') {
            return java.util.Arrays.copyOf(line, len - 1);
          }
          return line;
        }
        buf.write(b);
      }
      return null;
    }

    @Override
    public long linesRead() {
      return lines;
    }

    private void closeStream() {
      if (in != null) {
        try {
          in.close();
        } catch (IOException ignored) {
          // best effort
        }
        in = null;
      }
    }

    @Override
    public void close() {
      closeStream();
    }
  }
}
