package org.lucenenvm.realtime;

import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.FilterCodecReader;
import org.apache.lucene.util.Bits;

/**
 * A per-query view of a Lucene segment with the engine's deletions applied. Shares the segment's
 * core cache key (postings are the same), has no reader cache key (deletions differ), and never
 * closes the segment it wraps.
 */
final class LiveDocsCodecReader extends FilterCodecReader {
  private final Bits liveDocs;
  private final int numDocs;

  LiveDocsCodecReader(CodecReader in, DeletedDocs deletions) {
    super(in);
    this.liveDocs = deletions == null ? null : deletions.liveDocs(in.maxDoc());
    this.numDocs = deletions == null ? in.maxDoc() : in.maxDoc() - deletions.count();
  }

  @Override
  public Bits getLiveDocs() {
    return liveDocs;
  }

  @Override
  public int numDocs() {
    return numDocs;
  }

  @Override
  public CacheHelper getCoreCacheHelper() {
    return in.getCoreCacheHelper();
  }

  @Override
  public CacheHelper getReaderCacheHelper() {
    return null;
  }

  @Override
  protected void doClose() {
    // the wrapped segment belongs to its SegmentVersion
  }
}
