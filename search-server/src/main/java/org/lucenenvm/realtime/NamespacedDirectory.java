package org.lucenenvm.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.store.DataInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.NoLockFactory;

/**
 * A view of the files of a shared directory whose names start with a prefix, with the prefix
 * removed: lets each segment (or each partition) own a namespace in one NVM directory. Closing the
 * view does not close the shared directory. Locks of a segment namespace are no-ops (the engine
 * guarantees one writer per segment); a partition namespace takes its locks in the shared
 * directory under the prefixed name, so two engines cannot open the same partition.
 *
 * <p>A copy from another namespace (possibly wrapped in {@link FilterDirectory}s) is the shared
 * directories' copy of the prefixed names, so a store that can share a file's extents between two
 * names (an {@link org.lucenenvm.store.NvmDirectory} copying within itself) does so across
 * namespaces too.
 */
final class NamespacedDirectory extends Directory {
  private final Directory shared;
  private final String prefix;
  private final boolean sharedLocks;

  private NamespacedDirectory(Directory shared, String prefix, boolean sharedLocks) {
    if (prefix.isEmpty() || prefix.contains("/")) {
      throw new IllegalArgumentException("invalid namespace prefix '" + prefix + "'");
    }
    this.shared = shared;
    this.prefix = prefix;
    this.sharedLocks = sharedLocks;
  }

  /** The namespace of one segment: its locks are no-ops. */
  static NamespacedDirectory segment(Directory shared, String prefix) {
    return new NamespacedDirectory(shared, prefix, false);
  }

  /** The namespace of one partition (engine): its locks are the shared directory's. */
  static NamespacedDirectory partition(Directory shared, String prefix) {
    return new NamespacedDirectory(shared, prefix, true);
  }

  @Override
  public String[] listAll() throws IOException {
    List<String> names = new ArrayList<>();
    for (String name : shared.listAll()) {
      if (name.startsWith(prefix)) {
        names.add(name.substring(prefix.length()));
      }
    }
    return names.toArray(new String[0]);
  }

  @Override
  public void deleteFile(String name) throws IOException {
    shared.deleteFile(prefix + name);
  }

  @Override
  public long fileLength(String name) throws IOException {
    return shared.fileLength(prefix + name);
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    return new RenamedOutput(shared.createOutput(prefix + name, context), name);
  }

  @Override
  public IndexOutput createTempOutput(String tmpPrefix, String suffix, IOContext context)
      throws IOException {
    IndexOutput out = shared.createTempOutput(prefix + tmpPrefix, suffix, context);
    return new RenamedOutput(out, out.getName().substring(prefix.length()));
  }

  @Override
  public void sync(Collection<String> names) throws IOException {
    List<String> prefixed = new ArrayList<>(names.size());
    for (String name : names) {
      prefixed.add(prefix + name);
    }
    shared.sync(prefixed);
  }

  @Override
  public void syncMetaData() throws IOException {
    shared.syncMetaData();
  }

  @Override
  public void rename(String source, String dest) throws IOException {
    shared.rename(prefix + source, prefix + dest);
  }

  /**
   * Copies {@code src} of {@code from} to {@code dest} here: through the shared directories (see
   * the class documentation) when {@code from} unwraps to a namespace, byte by byte otherwise.
   */
  @Override
  public void copyFrom(Directory from, String src, String dest, IOContext context)
      throws IOException {
    if (FilterDirectory.unwrap(from) instanceof NamespacedDirectory source) {
      shared.copyFrom(source.shared, source.prefix + src, prefix + dest, context);
    } else {
      super.copyFrom(from, src, dest, context);
    }
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    return shared.openInput(prefix + name, context);
  }

  @Override
  public Lock obtainLock(String name) throws IOException {
    if (sharedLocks) {
      return shared.obtainLock(prefix + name);
    }
    return NoLockFactory.INSTANCE.obtainLock(this, name);
  }

  @Override
  public void close() {
    // the shared directory belongs to the caller
  }

  @Override
  public Set<String> getPendingDeletions() throws IOException {
    Set<String> pending = new TreeSet<>();
    for (String name : shared.getPendingDeletions()) {
      if (name.startsWith(prefix)) {
        pending.add(name.substring(prefix.length()));
      }
    }
    return pending;
  }

  @Override
  public String toString() {
    return "NamespacedDirectory(" + prefix + " in " + shared + ")";
  }

  /** An output whose name is the namespace-local name. */
  private static final class RenamedOutput extends IndexOutput {
    private final IndexOutput out;

    RenamedOutput(IndexOutput out, String name) {
      super("namespaced(" + out + ")", name);
      this.out = out;
    }

    @Override
    public void writeByte(byte b) throws IOException {
      out.writeByte(b);
    }

    @Override
    public void writeBytes(byte[] b, int offset, int length) throws IOException {
      out.writeBytes(b, offset, length);
    }

    @Override
    public void writeShort(short i) throws IOException {
      out.writeShort(i);
    }

    @Override
    public void writeInt(int i) throws IOException {
      out.writeInt(i);
    }

    @Override
    public void writeLong(long i) throws IOException {
      out.writeLong(i);
    }

    @Override
    public void copyBytes(DataInput input, long numBytes) throws IOException {
      out.copyBytes(input, numBytes);
    }

    @Override
    public long getFilePointer() {
      return out.getFilePointer();
    }

    @Override
    public long getChecksum() throws IOException {
      return out.getChecksum();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
