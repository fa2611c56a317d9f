package org.lucenenvm.codec;

import java.io.IOException;

/**
 * One enum's read access to the data files of one run ({@link RunFiles#data}): the doc and skip
 * files from the start, positions and payloads on first use. An enum over a linked segment keeps
 * one per run it has reached and switches its single {@link NvmPostingsEnum} between them, so a
 * run's access is opened once per enum however many of its terms the enum reads.
 */
final class RunData {

  private final RunFiles files;
  private final PostingsData docs;
  private final PostingsData skip;
  private PostingsData positions;
  private PostingsData payloads;

  RunData(RunFiles files) throws IOException {
    this.files = files;
    this.docs = files.data(RunFiles.Data.DOCS);
    this.skip = files.data(RunFiles.Data.SKIP);
  }

  /** The run whose files these are. */
  RunFiles files() {
    return files;
  }

  PostingsData docs() {
    return docs;
  }

  PostingsData skip() {
    return skip;
  }

  PostingsData positions() throws IOException {
    if (positions == null) {
      positions = files.data(RunFiles.Data.POSITIONS);
    }
    return positions;
  }

  PostingsData payloads() throws IOException {
    if (payloads == null) {
      payloads = files.data(RunFiles.Data.PAYLOADS);
    }
    return payloads;
  }
}
