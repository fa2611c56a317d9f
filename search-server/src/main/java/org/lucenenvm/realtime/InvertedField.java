package org.lucenenvm.realtime;

import org.apache.lucene.util.BytesRef;

/**
 * One field of one document after analysis: its distinct terms with their positions, and the norm
 * the similarity computed for it.
 *
 * @param name field name
 * @param kind how the field is indexed
 * @param terms distinct terms (empty for {@link FieldKind#STORED} and for text without tokens)
 * @param positions {@code positions[i]} are the positions of {@code terms[i]}, ascending; for
 *     {@link FieldKind#KEYWORD} fields a single position 0
 * @param length number of tokens (the sum of all term frequencies)
 * @param norm the norm value to index ({@link FieldKind#TEXT} only)
 */
record InvertedField(
    String name, FieldKind kind, BytesRef[] terms, int[][] positions, int length, long norm) {}
