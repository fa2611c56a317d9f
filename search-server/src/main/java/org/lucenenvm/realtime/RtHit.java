package org.lucenenvm.realtime;

import java.util.Map;

/**
 * One search hit: the document's id, its score and its stored fields (without the id).
 *
 * @param id document id
 * @param score similarity score
 * @param fields stored fields in the document's field order
 */
public record RtHit(String id, float score, Map<String, String> fields) {}
