package org.lucenenvm.opensearch;

import java.io.IOException;
import org.apache.lucene.store.FilterIndexOutput;
import org.apache.lucene.store.IndexOutput;
import org.lucenenvm.store.PoolFullException;

/**
 * Turns a {@link PoolFullException} into one that says which index, shard and node ran out of
 * pool, how large the pool is, and which setting raises it. The outputs it hands out pass every
 * write straight through; only a failure is rewritten.
 */
public final class PoolFullReporter {
  private final String where;
  private final String size;

  /**
   * @param where the shard and node, e.g. {@code [logs][0] on node [node-1]}
   * @param size the configured {@link NvmStoreSettings#POOL_SIZE}, as the operator wrote it
   */
  public PoolFullReporter(String where, String size) {
    this.where = where;
    this.size = size;
  }

  /** Something that opens an output. */
  @FunctionalInterface
  public interface OutputOpener {
    /** Opens the output. */
    IndexOutput open() throws IOException;
  }

  /** Opens an output whose pool-full failures name the shard, node and setting. */
  public IndexOutput watch(OutputOpener opener) throws IOException {
    try {
      return new Watched(opener.open());
    } catch (PoolFullException e) {
      throw explain(e);
    }
  }

  PoolFullException explain(PoolFullException cause) {
    PoolFullException explained =
        new PoolFullException(
            "NVM pool of shard " + where + " is full (" + NvmStoreSettings.POOL_SIZE.getKey() + " = "
                + size + "): " + cause.getMessage() + ". Raise " + NvmStoreSettings.POOL_SIZE.getKey()
                + " on the closed index and open it again; the pool grows on open and keeps its files.");
    explained.initCause(cause);
    return explained;
  }

  private final class Watched extends FilterIndexOutput {
    Watched(IndexOutput out) {
      super("pool-full reporting " + out, out.getName(), out);
    }

    @Override
    public void writeByte(byte b) throws IOException {
      try {
        out.writeByte(b);
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }

    @Override
    public void writeBytes(byte[] b, int offset, int length) throws IOException {
      try {
        out.writeBytes(b, offset, length);
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }

    @Override
    public void writeShort(short i) throws IOException {
      try {
        out.writeShort(i);
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }

    @Override
    public void writeInt(int i) throws IOException {
      try {
        out.writeInt(i);
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }

    @Override
    public void writeLong(long i) throws IOException {
      try {
        out.writeLong(i);
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (PoolFullException e) {
        throw explain(e);
      }
    }
  }
}
