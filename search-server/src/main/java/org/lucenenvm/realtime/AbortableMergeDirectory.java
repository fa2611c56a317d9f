package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FilterIndexOutput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * The target directory of one merge, which aborts the merge once its stop condition is true: an
 * output checks it when it is created and then once per {@value #CHECK_BYTES} bytes written, and
 * throws {@link MergePolicy.MergeAbortedException} (as Lucene's {@code RateLimitedIndexOutput}
 * aborts its merges). So a merge under way when the pipeline stops ends within a few hundred KiB
 * of output instead of at its end; the caller deletes what it wrote. A file copied into it ({@link
 * #copyFrom}) is copied by the target directory (which may share the source's extents instead of
 * writing bytes), with the check before and after it (a byte copy is not checked as it goes).
 */
final class AbortableMergeDirectory extends FilterDirectory {
  static final int CHECK_BYTES = 64 * 1024;

  private final BooleanSupplier stop;

  AbortableMergeDirectory(Directory target, BooleanSupplier stop) {
    super(target);
    this.stop = stop;
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    checkStop();
    return new CheckingOutput(in.createOutput(name, context));
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
      throws IOException {
    checkStop();
    return new CheckingOutput(in.createTempOutput(prefix, suffix, context));
  }

  @Override
  public void copyFrom(Directory from, String src, String dest, IOContext context)
      throws IOException {
    checkStop();
    in.copyFrom(from, src, dest, context);
    checkStop();
  }

  private void checkStop() throws MergePolicy.MergeAbortedException {
    if (stop.getAsBoolean()) {
      throw new MergePolicy.MergeAbortedException("merge aborted: the pipeline is stopping");
    }
  }

  /** An output that checks the stop condition before it writes past each {@link #CHECK_BYTES}. */
  private final class CheckingOutput extends FilterIndexOutput {
    private long unchecked;

    CheckingOutput(IndexOutput out) {
      super("abortable(" + out + ")", out.getName(), out);
    }

    private void beforeWrite(long bytes) throws IOException {
      unchecked += bytes;
      if (unchecked >= CHECK_BYTES) {
        unchecked = 0;
        checkStop();
      }
    }

    @Override
    public void writeByte(byte b) throws IOException {
      beforeWrite(1);
      out.writeByte(b);
    }

    @Override
    public void writeBytes(byte[] b, int offset, int length) throws IOException {
      beforeWrite(length);
      out.writeBytes(b, offset, length);
    }

    @Override
    public void writeShort(short i) throws IOException {
      beforeWrite(Short.BYTES);
      out.writeShort(i);
    }

    @Override
    public void writeInt(int i) throws IOException {
      beforeWrite(Integer.BYTES);
      out.writeInt(i);
    }

    @Override
    public void writeLong(long i) throws IOException {
      beforeWrite(Long.BYTES);
      out.writeLong(i);
    }
  }
}
