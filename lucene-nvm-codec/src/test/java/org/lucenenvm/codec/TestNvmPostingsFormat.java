package org.lucenenvm.codec;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.tests.index.BasePostingsFormatTestCase;

/** Lucene's full postings-format conformance suite, run against {@link NvmPostingsFormat}. */
public class TestNvmPostingsFormat extends BasePostingsFormatTestCase {
  private final Codec codec = new NvmCodec();

  @Override
  protected Codec getCodec() {
    return codec;
  }
}
