package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.lucenenvm.realtime.RtDocument;
import org.lucenenvm.realtime.RtHit;
import org.lucenenvm.realtime.RtSchema;

/**
 * The JSON form of documents: a flat object with a string {@code id} and one string per declared
 * field, e.g. {@code {"id": "42", "title": "hello", "lang": "en"}}. Whether the fields are declared
 * is checked by the engine.
 */
final class Documents {
  private Documents() {}

  /**
   * Converts a JSON object to a document. {@code pathId} (the id in the URL, or null) wins over a
   * missing {@code id} member and must equal a present one.
   */
  static RtDocument fromJson(JsonNode object, String pathId) {
    JsonNode idNode = object.get(RtSchema.ID_FIELD);
    String id;
    if (idNode == null || idNode.isNull()) {
      id = pathId;
    } else if (!idNode.isTextual()) {
      throw new ApiException(400, "'id' must be a string, got " + type(idNode));
    } else {
      id = idNode.textValue();
      if (pathId != null && !pathId.equals(id)) {
        throw new ApiException(
            400, "body id '" + id + "' differs from the id '" + pathId + "' in the URL");
      }
    }
    if (id == null || id.isEmpty()) {
      throw new ApiException(400, "document has no non-empty string 'id'");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      if (RtSchema.ID_FIELD.equals(e.getKey())) {
        continue;
      }
      if (!e.getValue().isTextual()) {
        throw new ApiException(
            400, "field '" + e.getKey() + "' must be a string, got " + type(e.getValue()));
      }
      fields.put(e.getKey(), e.getValue().textValue());
    }
    return new RtDocument(id, fields);
  }

  private static String type(JsonNode node) {
    return node.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  /** The JSON form of a hit: id, score and stored fields. */
  static Map<String, Object> toJson(RtHit hit) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(RtSchema.ID_FIELD, hit.id());
    out.put("score", hit.score());
    out.put("fields", hit.fields());
    return out;
  }
}
