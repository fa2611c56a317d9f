/**
 * Uncompressed postings read in place, for indexes on byte-addressable memory (lucene-nvm's
 * {@code NvmDirectory}, or any directory whose inputs are memory segments, such as {@code
 * MMapDirectory}).
 *
 * <p>{@link org.lucenenvm.codec.NvmPostingsFormat} (SPI name {@value
 * org.lucenenvm.codec.NvmPostingsFormat#NAME}) keeps Lucene's block-tree terms dictionary and
 * stores postings in blocks of {@value org.lucenenvm.codec.NvmPostingsFormat#BLOCK_SIZE}
 * documents as fixed-width little-endian values (doc IDs as a bit set, 8- or 16-bit deltas or
 * Int32 values; freqs and positions in the narrowest width a block allows), with a skip table
 * and competitive impacts per block and per group of blocks; its javadoc gives the file formats.
 * {@link org.lucenenvm.codec.NvmCodec} is Lucene's default codec with these postings.
 */
package org.lucenenvm.codec;
