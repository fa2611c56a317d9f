package org.lucenenvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.lucenenvm.demo.SyntheticCorpus;

/**
 * The synthetic workload {@link LoadBenchmark} and {@link SoakBenchmark} send: documents by number
 * from one {@link SyntheticCorpus}, 1,000 queries over its words, how popular each query is, and the
 * per-line outcome of one {@code _bulk} request.
 */
final class LoadWorkload {
  static final SyntheticCorpus CORPUS = new SyntheticCorpus(20_000);

  private LoadWorkload() {}

  /** 1,000 queries of four shapes; each word qualified with {@code field}, or unqualified when null. */
  static List<String> queries(String field) {
    SplittableRandom r = new SplittableRandom(42);
    String f = field == null ? "" : field + ":";
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String a = CORPUS.word(r.nextInt(2000));
      String b = CORPUS.word(r.nextInt(200));
      out.add(switch (i % 4) {
        case 0 -> f + a;
        case 1 -> f + a + " AND " + f + b;
        case 2 -> field == null ? "title:" + a + " OR body:" + b : f + a + " OR " + f + b;
        default -> f + "\"" + b + " " + CORPUS.word(r.nextInt(50)) + "\"";
      });
    }
    return out;
  }

  /** Which query a searcher runs next: uniformly drawn, or with Zipf popularity by list position. */
  static final class QueryPopularity {
    private final double[] cumulative;

    QueryPopularity(int queries, double exponent) {
      cumulative = new double[queries];
      double sum = 0;
      for (int i = 0; i < queries; i++) {
        sum += exponent > 0 ? Math.pow(i + 1, -exponent) : 1;
        cumulative[i] = sum;
      }
    }

    int next(SplittableRandom random) {
      double u = random.nextDouble() * cumulative[cumulative.length - 1];
      int i = Arrays.binarySearch(cumulative, u);
      return Math.min(cumulative.length - 1, i >= 0 ? i + 1 : -i - 1);
    }
  }

  /**
   * What one {@code _bulk} request of documents {@code [from, from + lines)} did.
   *
   * @param from number of the first document
   * @param applied the lines applied (status 200 or 201), by offset from {@code from}
   * @param failed the lines not applied, each with its status
   * @param firstFailure the first line not applied, or null
   */
  record BulkOutcome(long from, BitSet applied, List<Integer> failed, ApiException firstFailure) {
    long acknowledged() {
      return applied.cardinality();
    }
  }

  /** Sends documents {@code [from, to)} to {@code index} in one {@code _bulk} request. */
  static BulkOutcome bulk(ApiClient api, String index, long from, long to) throws IOException {
    JsonNode reply = api.bulk(index, CORPUS.batch(from, to));
    BitSet applied = new BitSet();
    List<Integer> failed = new ArrayList<>();
    ApiException first = null;
    int offset = 0;
    for (JsonNode item : reply.get("items")) {
      int status = item.get("status").asInt();
      if (status == 200 || status == 201) {
        applied.set(offset);
      } else {
        failed.add(status);
        if (first == null) {
          first = new ApiException(status, "line " + item.get("line") + ": " + item.get("error").asText());
        }
      }
      offset++;
    }
    if (applied.cardinality() != reply.get("acknowledged").asLong()) {
      throw new IllegalStateException(
          "_bulk of documents " + from + "-" + (to - 1) + " acknowledged " + reply.get("acknowledged")
              + " but its items show " + applied.cardinality() + " applied: " + reply);
    }
    return new BulkOutcome(from, applied, failed, first);
  }
}
