package org.lucenenvm.realtime;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.FieldsConsumer;
import org.apache.lucene.codecs.NormsConsumer;
import org.apache.lucene.codecs.NormsProducer;
import org.apache.lucene.codecs.StoredFieldsWriter;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.SlowCodecReaderWrapper;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FlushInfo;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.TrackingDirectoryWrapper;
import org.apache.lucene.util.Constants;
import org.apache.lucene.util.InfoStream;
import org.apache.lucene.util.StringHelper;
import org.apache.lucene.util.Version;

/**
 * Writes the documents of a frozen live segment's reader as a one-segment Lucene index, straight
 * to the codec's formats the way Lucene's own flush does ({@code IndexingChain} and {@code
 * FreqProxTermsWriter}), without {@link IndexWriter#addIndexes} and its merge: stored fields,
 * norms, postings (terms in order from the reader, impacts computed from the reader's in-memory
 * norms instead of the norms just written), the binary doc values of the id field, then field
 * infos and the segment info; the files are synced and committed ({@code segments_1}) as
 * IndexWriter commits. The result is an ordinary segment (CheckIndex accepts it) in the
 * configured codec; every doc below the reader's {@code maxDoc} is written, deleted ones included
 * (the engine filters them by id).
 */
final class SegmentFlushWriter {
  /** The segment's name in its own directory (every tier segment is a one-segment index). */
  private static final String SEGMENT_NAME = "_0";

  private final Codec codec;

  SegmentFlushWriter(Codec codec) {
    this.codec = codec;
  }

  /** Writes {@code reader} into the empty directory {@code target} and commits it. */
  void write(Directory target, LeafReader reader) throws IOException {
    int maxDoc = reader.maxDoc();
    if (maxDoc == 0) {
      throw new IllegalArgumentException("cannot flush a live segment without documents");
    }
    SegmentInfo info =
        new SegmentInfo(
            target,
            Version.LATEST,
            Version.LATEST,
            SEGMENT_NAME,
            maxDoc,
            false,
            false,
            codec,
            diagnostics(),
            StringHelper.randomId(),
            new HashMap<>(),
            null);
    TrackingDirectoryWrapper dir = new TrackingDirectoryWrapper(target);
    IOContext context = IOContext.flush(new FlushInfo(maxDoc, 0));
    FieldInfos fieldInfos = copyOf(reader.getFieldInfos());
    SegmentWriteState state =
        new SegmentWriteState(InfoStream.NO_OUTPUT, dir, info, fieldInfos, null, context);
    // The reader's norms, postings and doc values as codec views: norms from memory (for the norms
    // format and the postings' impacts), indexed fields in name order (as Lucene's flush).
    CodecReader views = SlowCodecReaderWrapper.wrap(reader);
    NormsProducer norms = views.getNormsReader();

    writeStoredFields(reader, dir, info, fieldInfos, context);
    if (fieldInfos.hasNorms()) {
      try (NormsConsumer consumer = codec.normsFormat().normsConsumer(state)) {
        for (FieldInfo field : fieldInfos) {
          if (field.hasNorms()) {
            consumer.addNormsField(field, norms);
          }
        }
      }
    }
    if (fieldInfos.hasPostings()) {
      try (FieldsConsumer consumer = codec.postingsFormat().fieldsConsumer(state)) {
        consumer.write(views.getPostingsReader(), norms);
      }
    }
    if (fieldInfos.hasDocValues()) {
      try (DocValuesConsumer consumer = codec.docValuesFormat().fieldsConsumer(state)) {
        for (FieldInfo field : fieldInfos) {
          if (field.getDocValuesType() != DocValuesType.NONE) {
            addDocValues(consumer, field, views);
          }
        }
      }
    }
    // Last, as in Lucene's flush: the formats above record per-field attributes in the infos.
    codec.fieldInfosFormat().write(dir, info, "", fieldInfos, context);
    info.setFiles(dir.getCreatedFiles());
    codec.segmentInfoFormat().write(dir, info, context);

    target.sync(info.files());
    SegmentInfos commit = new SegmentInfos(Version.LATEST.major);
    commit.counter = 1;
    commit.add(new SegmentCommitInfo(info, 0, 0, -1, -1, -1, StringHelper.randomId()));
    commit.commit(target);
  }

  private static Map<String, String> diagnostics() {
    Map<String, String> diagnostics = new HashMap<>();
    diagnostics.put("source", IndexWriter.SOURCE_FLUSH);
    diagnostics.put("lucene.version", Version.LATEST.toString());
    diagnostics.put("os", Constants.OS_NAME);
    diagnostics.put("os.arch", Constants.OS_ARCH);
    diagnostics.put("os.version", Constants.OS_VERSION);
    diagnostics.put("java.runtime.version", Runtime.version().toString());
    diagnostics.put("java.vendor", Constants.JAVA_VENDOR);
    diagnostics.put("timestamp", Long.toString(Instant.now().toEpochMilli()));
    return diagnostics;
  }

  /** Fresh infos with the same numbers: the formats add attributes, the reader's stay as they are. */
  private static FieldInfos copyOf(FieldInfos infos) {
    FieldInfo[] copies = new FieldInfo[infos.size()];
    int i = 0;
    for (FieldInfo f : infos) {
      copies[i++] =
          new FieldInfo(
              f.name,
              f.number,
              f.hasTermVectors(),
              f.omitsNorms(),
              f.hasPayloads(),
              f.getIndexOptions(),
              f.getDocValuesType(),
              f.docValuesSkipIndexType(),
              -1,
              new HashMap<>(),
              f.getPointDimensionCount(),
              f.getPointIndexDimensionCount(),
              f.getPointNumBytes(),
              f.getVectorDimension(),
              f.getVectorEncoding(),
              f.getVectorSimilarityFunction(),
              f.isSoftDeletesField(),
              f.isParentField());
    }
    return new FieldInfos(copies);
  }

  private void writeStoredFields(
      LeafReader reader, Directory dir, SegmentInfo info, FieldInfos fieldInfos, IOContext context)
      throws IOException {
    StoredFields source = reader.storedFields();
    try (StoredFieldsWriter writer = codec.storedFieldsFormat().fieldsWriter(dir, info, context)) {
      StoredFieldVisitor copier =
          new StoredFieldVisitor() {
            @Override
            public Status needsField(FieldInfo field) {
              return Status.YES;
            }

            @Override
            public void stringField(FieldInfo field, String value) throws IOException {
              writer.writeField(fieldInfos.fieldInfo(field.number), value);
            }
          };
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        writer.startDocument();
        source.document(doc, copier);
        writer.finishDocument();
      }
      writer.finish(reader.maxDoc());
    }
  }

  private static void addDocValues(DocValuesConsumer consumer, FieldInfo field, CodecReader views)
      throws IOException {
    if (field.getDocValuesType() != DocValuesType.BINARY) {
      throw new IllegalArgumentException(
          "field '" + field.name + "' has " + field.getDocValuesType()
              + " doc values; a live segment flush writes binary doc values only");
    }
    consumer.addBinaryField(field, views.getDocValuesReader());
  }
}
