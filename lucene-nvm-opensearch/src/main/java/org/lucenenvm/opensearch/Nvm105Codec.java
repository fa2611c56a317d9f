package org.lucenenvm.opensearch;

import java.util.Set;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104PostingsFormat;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;
import org.lucenenvm.codec.NvmPostingsFormat;
import org.opensearch.index.codec.CodecAliases;

/**
 * The index's own codec with {@link NvmPostingsFormat} in place of Lucene's default postings.
 * Fields for which the wrapped codec picks a special postings format (OpenSearch's completion
 * suggester, the bloom-filtered {@code _id}) keep it; every field that would get {@link
 * Lucene104PostingsFormat} gets {@link NvmPostingsFormat} instead.
 *
 * <p>Segments record the codec as {@value #NAME}: the name carries the Lucene line (10.5) the
 * codec was built on, as Lucene's own codec names do, so a later, different codec gets a new name
 * and old segments stay readable. OpenSearch users select it with {@code "index.codec": "}{@value
 * #ALIAS}{@code "}. The no-argument instance that Lucene's SPI creates reads such segments: each
 * field's postings format is found by the name the segment recorded for it.
 */
public final class Nvm105Codec extends FilterCodec implements CodecAliases {
  /** The SPI name written into segments. */
  public static final String NAME = "Nvm105Codec";
  /** The {@code index.codec} value that selects this codec over the index's default codec. */
  public static final String ALIAS = "nvm";

  private final PostingsFormat postingsFormat;

  /** For Lucene's SPI (reading): wraps Lucene's default codec. */
  public Nvm105Codec() {
    this(new Lucene104Codec());
  }

  /** Wraps {@code delegate}, e.g. OpenSearch's per-field-mapping default codec. */
  public Nvm105Codec(Codec delegate) {
    super(NAME, delegate);
    PostingsFormat nvm = new NvmPostingsFormat();
    PostingsFormat chosen = delegate.postingsFormat();
    this.postingsFormat =
        new PerFieldPostingsFormat() {
          @Override
          public PostingsFormat getPostingsFormatForField(String field) {
            PostingsFormat format =
                chosen instanceof PerFieldPostingsFormat perField
                    ? perField.getPostingsFormatForField(field)
                    : chosen;
            return format instanceof Lucene104PostingsFormat ? nvm : format;
          }
        };
  }

  @Override
  public PostingsFormat postingsFormat() {
    return postingsFormat;
  }

  @Override
  public Set<String> aliases() {
    return Set.of(ALIAS);
  }
}
