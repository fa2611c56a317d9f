package org.lucenenvm.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.apache.lucene.codecs.FieldsConsumer;
import org.apache.lucene.codecs.FieldsProducer;
import org.apache.lucene.codecs.NormsProducer;
import org.apache.lucene.codecs.lucene103.blocktree.Lucene103BlockTreeTermsWriter;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.Fields;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.lucenenvm.codec.RunFiles.Data;

/**
 * A linked merge of {@link NvmPostingsFormat}: the merged segment's postings are its sources'
 * runs, cloned with {@link org.apache.lucene.store.Directory#copyFrom} (a linked source contributes
 * its own runs, with doc bases shifted by its own: chains are flattened), listed in a {@link
 * RunTable}, and its terms dictionary maps each term to the runs holding it ({@link
 * LinkedPostingsWriter}). No postings are read or written. (Whether a clone shares storage is the
 * directory's affair; note that ConcurrentMergeScheduler wraps a merge's directory in a
 * FilterDirectory whose {@code copyFrom} is Directory's, which copies bytes.)
 *
 * <p>{@link #plan} decides whether the merge can link, with one pass over the sources' terms
 * dictionaries: the sources' term states are all this format's (a source's {@link
 * NvmPostingsReader} is reached through them, see {@link NvmTermState#reader}), nothing is deleted
 * or sorted (so a source's doc {@code d} becomes {@code docBase + d}), every field has the same
 * index options and payloads in every source as in the merged segment (the runs are read with the
 * merged segment's field infos), each source has one reader of the format (one segment suffix)
 * whose maxDoc is the source's, and no term would have more than {@code maxRunsPerTerm} runs.
 */
final class LinkedMerge {

  private final MergeState mergeState;
  private final List<FieldInfo> fields;

  /** Per source: its reader of this format, null if it holds none of the fields' terms. */
  private final NvmPostingsReader[] sources;

  /** Per source: doc ID in the merged segment of its document 0. */
  private final int[] docBases;

  /** Per source with a reader: index of its first run in {@link #runs}. */
  private final int[] firstRuns;

  private final List<RunFiles> runFiles = new ArrayList<>();
  private final List<RunTable.Run> runs = new ArrayList<>();

  private LinkedMerge(
      MergeState mergeState, List<FieldInfo> fields, NvmPostingsReader[] sources, int[] docBases) {
    this.mergeState = mergeState;
    this.fields = fields;
    this.sources = sources;
    this.docBases = docBases;
    this.firstRuns = new int[sources.length];
    for (int i = 0; i < sources.length; i++) {
      NvmPostingsReader source = sources[i];
      firstRuns[i] = runs.size();
      if (source == null) {
        continue;
      }
      for (int k = 0; k < source.runCount(); k++) {
        RunFiles files = source.run(k);
        runFiles.add(files);
        runs.add(
            new RunTable.Run(
                files.segmentId(),
                files.headerSuffix(),
                docBases[i] + source.docBase(k),
                source.maxDoc(k),
                files.present()));
      }
    }
  }

  /**
   * The linked merge of {@code mergeState}'s sources, or null if they cannot be linked (the reason
   * goes to the merge's info stream).
   */
  static LinkedMerge plan(MergeState mergeState, int maxRunsPerTerm) throws IOException {
    int n = mergeState.maxDocs.length;
    if (mergeState.needsIndexSort) {
      return ineligible(mergeState, "the merge sorts the index");
    }
    int[] docBases = new int[n];
    for (int i = 0; i < n; i++) {
      if (mergeState.liveDocs[i] != null) {
        return ineligible(mergeState, "source " + i + " has deletions");
      }
      docBases[i] = i == 0 ? 0 : docBases[i - 1] + mergeState.maxDocs[i - 1];
      assert mergeState.maxDocs[i] == 0
          || (mergeState.docMaps[i].get(0) == docBases[i]
              && mergeState.docMaps[i].get(mergeState.maxDocs[i] - 1)
                  == docBases[i] + mergeState.maxDocs[i] - 1);
    }
    List<FieldInfo> fields = fields(mergeState);
    NvmPostingsReader[] sources = new NvmPostingsReader[n];
    for (FieldInfo field : fields) {
      for (int i = 0; i < n; i++) {
        FieldInfos sourceFields = mergeState.fieldInfos[i];
        FieldInfo sourceField = sourceFields == null ? null : sourceFields.fieldInfo(field.name);
        if (sourceField != null
            && sourceField.getIndexOptions() != IndexOptions.NONE
            && (sourceField.getIndexOptions() != field.getIndexOptions()
                || sourceField.hasPayloads() != field.hasPayloads())) {
          return ineligible(
              mergeState, "field " + field.name + " of source " + i + " has other index options");
        }
      }
      MergedTerms.UnionEnum terms = mergedTerms(mergeState, field).iterator();
      while (terms.next() != null) {
        int termRuns = 0;
        for (int k = 0; k < terms.sourceCount(); k++) {
          int i = terms.source(k);
          TermState state = terms.termState(k);
          NvmPostingsReader reader =
              switch (state) {
                case NvmTermState single -> single.reader;
                case LinkedTermState linked -> linked.reader;
                default -> null;
              };
          if (reader == null) {
            return ineligible(
                mergeState, "field " + field.name + " of source " + i + " is in another format");
          }
          if (sources[i] == null) {
            if (reader.maxDoc() != mergeState.maxDocs[i]) {
              return ineligible(
                  mergeState,
                  "source " + i + " has maxDoc " + mergeState.maxDocs[i]
                      + ", its postings " + reader.maxDoc());
            }
            sources[i] = reader;
          } else if (sources[i] != reader) {
            return ineligible(mergeState, "source " + i + " has several segment suffixes");
          }
          termRuns += state instanceof LinkedTermState linked ? linked.count : 1;
        }
        if (termRuns > maxRunsPerTerm) {
          return ineligible(
              mergeState,
              "term " + terms.term().utf8ToString() + " of field " + field.name + " would be in "
                  + termRuns + " runs, more than " + maxRunsPerTerm);
        }
      }
    }
    LinkedMerge merge = new LinkedMerge(mergeState, fields, sources, docBases);
    if (merge.runs.isEmpty()) {
      return ineligible(mergeState, "no source has postings");
    }
    return merge;
  }

  private static LinkedMerge ineligible(MergeState mergeState, String reason) {
    if (mergeState.infoStream.isEnabled(INFO_STREAM_COMPONENT)) {
      mergeState.infoStream.message(INFO_STREAM_COMPONENT, "copying merge: " + reason);
    }
    return null;
  }

  static final String INFO_STREAM_COMPONENT = "NVM";

  /** The indexed fields of the merge (those of this format, by PerFieldPostingsFormat), sorted. */
  private static List<FieldInfo> fields(MergeState mergeState) {
    TreeMap<String, FieldInfo> fields = new TreeMap<>();
    for (FieldsProducer producer : mergeState.fieldsProducers) {
      if (producer == null) {
        continue;
      }
      for (Iterator<String> it = producer.iterator(); it.hasNext(); ) {
        FieldInfo field = mergeState.mergeFieldInfos.fieldInfo(it.next());
        if (field != null && field.getIndexOptions() != IndexOptions.NONE) {
          fields.put(field.name, field);
        }
      }
    }
    return List.copyOf(fields.values());
  }

  private static MergedTerms mergedTerms(MergeState mergeState, FieldInfo field)
      throws IOException {
    Terms[] terms = new Terms[mergeState.fieldsProducers.length];
    for (int i = 0; i < terms.length; i++) {
      FieldsProducer producer = mergeState.fieldsProducers[i];
      terms[i] = producer == null ? null : producer.terms(field.name);
    }
    return new MergedTerms(field, terms);
  }

  /** Index in the merged segment's run table of run {@code run} of source {@code source}. */
  int runIndex(int source, int run) {
    return firstRuns[source] + run;
  }

  /** Number of runs of the merged segment. */
  int runCount() {
    return runs.size();
  }

  /** Doc ID in the merged segment of document 0 of source {@code source}. */
  int docBase(int source) {
    return docBases[source];
  }

  /**
   * Writes the linked segment: clones the runs' data files, writes the run table, marks the segment
   * linked, then writes the terms dictionary.
   */
  void write(
      SegmentWriteState state, NormsProducer norms, int minTermBlockSize, int maxTermBlockSize)
      throws IOException {
    for (int k = 0; k < runs.size(); k++) {
      RunFiles files = runFiles.get(k);
      for (Data data : files.present()) {
        state.directory.copyFrom(
            files.directory(),
            files.fileName(data),
            RunTable.runFileName(
                state.segmentInfo.name, state.segmentSuffix, k, data.extension),
            state.context);
      }
    }
    new RunTable(runs).write(state);
    NvmPostingsFormat.markLinked(state.segmentInfo, state.segmentSuffix, runs.size());
    try (FieldsConsumer terms =
        new Lucene103BlockTreeTermsWriter(
            state, new LinkedPostingsWriter(this), minTermBlockSize, maxTermBlockSize)) {
      terms.write(new MergedFields(), norms);
    }
  }

  /** The sources' fields, each the union of the sources' terms. */
  private final class MergedFields extends Fields {
    @Override
    public Iterator<String> iterator() {
      return fields.stream().map(field -> field.name).iterator();
    }

    @Override
    public Terms terms(String field) throws IOException {
      return mergedTerms(mergeState, mergeState.mergeFieldInfos.fieldInfo(field));
    }

    @Override
    public int size() {
      return fields.size();
    }
  }
}
