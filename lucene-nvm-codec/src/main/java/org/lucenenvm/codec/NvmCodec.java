package org.lucenenvm.codec;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;

/**
 * Lucene's default codec ({@link Lucene104Codec}) with {@link NvmPostingsFormat} postings.
 * Registered through SPI as {@value #NAME}.
 *
 * <p>Postings are chosen per field: by default every field gets {@link NvmPostingsFormat}, and
 * {@link #NvmCodec(Function)} lets a caller pick another format for some fields (e.g. keep {@code
 * Lucene104} for rarely queried ones). Segments record each field's format by name, so an index
 * written with any per-field choice is read back by the no-argument codec that SPI instantiates,
 * as long as every chosen format is itself SPI-registered.
 *
 * <p>Merges copy postings unless the codec was made with {@link #withMergeMode}: linked merges
 * ({@link NvmPostingsFormat.MergeMode#LINK}) need a merge policy that never builds compound files.
 */
public final class NvmCodec extends FilterCodec {

  /** Name under which this codec is registered through SPI. */
  public static final String NAME = "NvmCodec";

  private final Function<String, PostingsFormat> postingsFormatForField;
  private final PostingsFormat postingsFormat;

  /** Uses {@link NvmPostingsFormat} for every field. */
  public NvmCodec() {
    this(uniform(new NvmPostingsFormat()));
  }

  /**
   * Uses the postings format that {@code postingsFormatForField} returns for each field name.
   *
   * @throws NullPointerException if the function is null, or later if it returns null for a field
   */
  public NvmCodec(Function<String, PostingsFormat> postingsFormatForField) {
    super(NAME, new Lucene104Codec());
    this.postingsFormatForField =
        Objects.requireNonNull(postingsFormatForField, "postingsFormatForField");
    this.postingsFormat =
        new PerFieldPostingsFormat() {
          @Override
          public PostingsFormat getPostingsFormatForField(String field) {
            return Objects.requireNonNull(
                postingsFormatForField.apply(field), "no postings format for field " + field);
          }
        };
  }

  /**
   * This codec with every {@link NvmPostingsFormat} it chooses merging in {@code mode} (at most
   * {@code maxRunsPerTerm} runs per term when linking); other formats are kept. Each format instance
   * maps to one instance, so fields that shared a format still share its files.
   */
  public NvmCodec withMergeMode(NvmPostingsFormat.MergeMode mode, int maxRunsPerTerm) {
    Map<PostingsFormat, PostingsFormat> remoded = new ConcurrentHashMap<>();
    return new NvmCodec(
        field ->
            remoded.computeIfAbsent(
                Objects.requireNonNull(
                    postingsFormatForField.apply(field), "no postings format for field " + field),
                format ->
                    format instanceof NvmPostingsFormat nvm
                        ? nvm.withMergeMode(mode, maxRunsPerTerm)
                        : format));
  }

  private static Function<String, PostingsFormat> uniform(PostingsFormat format) {
    return field -> format;
  }

  @Override
  public PostingsFormat postingsFormat() {
    return postingsFormat;
  }
}
