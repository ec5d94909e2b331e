package io.sluice.tuner.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps request bodies at {@code sluice.security.max-body-size}: a declared larger {@code
 * Content-Length} is answered 413 before anything reads it; a chunked body that grows past the cap
 * fails its read with {@link TooLarge}, which {@link ApiErrors} answers 413 too.
 */
public final class BodySizeLimit extends OncePerRequestFilter {
  /** A body read past the cap. */
  public static final class TooLarge extends IOException {
    TooLarge(long max) {
      super("the request body is larger than " + max + " bytes (sluice.security.max-body-size)");
    }
  }

  /** Writes the 413 answer. */
  @FunctionalInterface
  public interface Refusal {
    void refuse(HttpServletRequest req, HttpServletResponse res, String message) throws IOException;
  }

  private final long max;
  private final Refusal refusal;

  public BodySizeLimit(long max, Refusal refusal) {
    this.max = max;
    this.refusal = refusal;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws ServletException, IOException {
    long declared = req.getContentLengthLong();
    if (declared > max) {
      refusal.refuse(
          req,
          res,
          "the request body has "
              + declared
              + " bytes, more than the "
              + max
              + " allowed (sluice.security.max-body-size)");
      return;
    }
    chain.doFilter(declared >= 0 ? req : new Capped(req, max), res);
  }

  private static final class Capped extends HttpServletRequestWrapper {
    private final long max;
    private ServletInputStream stream;

    Capped(HttpServletRequest req, long max) {
      super(req);
      this.max = max;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        ServletInputStream in = super.getInputStream();
        stream =
            new ServletInputStream() {
              private long read;

              @Override
              public int read() throws IOException {
                int b = in.read();
                if (b >= 0 && ++read > max) {
                  throw new TooLarge(max);
                }
                return b;
              }

              @Override
              public int read(byte[] buf, int off, int len) throws IOException {
                int n = in.read(buf, off, len);
                if (n > 0 && (read += n) > max) {
                  throw new TooLarge(max);
                }
                return n;
              }

              @Override
              public boolean isFinished() {
                return in.isFinished();
              }

              @Override
              public boolean isReady() {
                return in.isReady();
              }

              @Override
              public void setReadListener(ReadListener l) {
                in.setReadListener(l);
              }
            };
      }
      return stream;
    }
  }
}
