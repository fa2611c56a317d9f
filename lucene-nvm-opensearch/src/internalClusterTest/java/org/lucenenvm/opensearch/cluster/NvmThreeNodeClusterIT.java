package org.lucenenvm.opensearch.cluster;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.lucenenvm.opensearch.Nvm105Codec;
import org.lucenenvm.opensearch.NvmPlugin;
import org.lucenenvm.opensearch.NvmShardDirectory;
import org.opensearch.action.admin.cluster.allocation.ClusterAllocationExplainResponse;
import org.opensearch.action.admin.cluster.snapshots.create.CreateSnapshotResponse;
import org.opensearch.action.admin.cluster.snapshots.restore.RestoreSnapshotResponse;
import org.opensearch.action.admin.indices.close.CloseIndexResponse;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.cluster.routing.IndexShardRoutingTable;
import org.opensearch.cluster.routing.UnassignedInfo;
import org.opensearch.cluster.routing.allocation.command.MoveAllocationCommand;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.index.IndexService;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.plugins.Plugin;
import org.opensearch.snapshots.SnapshotState;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;

/**
 * Three OpenSearch nodes in this JVM (OpenSearch's own test cluster), each with the plugin, and
 * indices with one primary and one replica on the {@code nvm} codec and store. Every shard opened
 * from existing files runs Lucene's CheckIndex first ({@code index.shard.check_on_startup}), and
 * the framework compares the copies' documents and sequence numbers after each test.
 */
@ClusterScope(scope = Scope.SUITE, numDataNodes = 3, supportsDedicatedMasters = false, numClientNodes = 0)
@LuceneTestCase.SuppressFileSystems("*") // a pool is memory-mapped: it needs the real file system
public class NvmThreeNodeClusterIT extends OpenSearchIntegTestCase {
  private static final int TERMS = 50;

  @Override
  protected Collection<Class<? extends Plugin>> nodePlugins() {
    return List.of(NvmPlugin.class);
  }

  public void testIndexSearchRestartAndRelocate() throws Exception {
    createNvmIndex("docs", "64mb");
    int n = 3000;
    assertEquals(n, index("docs", 0, n, 3).size());
    refresh("docs");
    ensureGreen("docs");
    assertCopiesOnNvm("docs");
    assertSearchableOnEveryCopy("docs", n);

    // Restart the primary's node: the replica is promoted, the restarted copy recovers from it.
    String primaryNode = primaryNodeName("docs");
    internalCluster().restartNode(primaryNode);
    ensureGreen("docs");
    assertSearchableOnEveryCopy("docs", n);
    assertEquals(1000, index("docs", n, n + 1000, 3).size());
    n += 1000;
    refresh("docs");
    assertSearchableOnEveryCopy("docs", n);

    // Move the replica to the node that holds no copy.
    String replicaNode = replicaNodeName("docs");
    String freeNode = freeNodeName("docs");
    clusterAdmin().prepareReroute().add(new MoveAllocationCommand("docs", 0, replicaNode, freeNode)).get();
    waitForRelocation();
    ensureGreen("docs");
    assertEquals(freeNode, replicaNodeName("docs"));
    assertCopiesOnNvm("docs");
    assertSearchableOnEveryCopy("docs", n);
  }

  public void testSnapshotAndRestore() throws Exception {
    createNvmIndex("snap", "32mb");
    int n = 2000;
    assertEquals(n, index("snap", 0, n, 3).size());
    flushAndRefresh("snap");
    ensureGreen("snap");
    Path repo = randomRepoPath();
    createRepository("repo", "fs", Settings.builder().put("location", repo));
    CreateSnapshotResponse created =
        clusterAdmin().prepareCreateSnapshot("repo", "s1").setIndices("snap").setWaitForCompletion(true).get();
    assertEquals(SnapshotState.SUCCESS, created.getSnapshotInfo().state());
    assertEquals(1, created.getSnapshotInfo().successfulShards());

    assertAcked(client().admin().indices().prepareDelete("snap"));
    RestoreSnapshotResponse restored =
        clusterAdmin().prepareRestoreSnapshot("repo", "s1").setIndices("snap").setWaitForCompletion(true).get();
    assertEquals(1, restored.getRestoreInfo().successfulShards());
    ensureGreen("snap");
    assertCopiesOnNvm("snap");
    assertSearchableOnEveryCopy("snap", n);
  }

  public void testFullPoolFailsClearlyAndLosesNothingAcknowledged() throws Exception {
    createNvmIndex("full", "8mb");
    List<String> acknowledged = index("full", 0, 20_000, 60);
    assertTrue("an 8 MB pool cannot hold 20000 documents of 60 words", acknowledged.size() < 20_000);

    assertBusy(
        () -> {
          ClusterAllocationExplainResponse explain =
              clusterAdmin().prepareAllocationExplain().setIndex("full").setShard(0).setPrimary(true).get();
          UnassignedInfo unassigned = explain.getExplanation().getUnassignedInfo();
          assertNotNull("primary of [full] still assigned", unassigned);
          assertTrue(
              unassigned.getDetails(),
              unassigned.getDetails().matches(
                  "(?s).*NVM pool of shard \\[full\\]\\[0\\] on node \\[[^]]+\\] is full "
                      + "\\(index.store.nvm.pool.size = 8mb\\).*"));
        },
        2,
        TimeUnit.MINUTES);

    // Closing fails while a copy is between allocation retries: try until the index is closed.
    // Its shards then fail to open as closed shards (their last commit lacks the operations that
    // only the translog holds) until the index is opened again, which replays the translog.
    assertBusy(
        () -> {
          CloseIndexResponse closed;
          try {
            closed = client().admin().indices().prepareClose("full").get();
          } catch (Exception e) {
            throw new AssertionError("closing [full] failed", e);
          }
          assertTrue("index [full] closed: " + closed.getIndices(), closed.isAcknowledged());
          assertFalse("index [full] closed", closed.getIndices().get(0).hasFailures());
        },
        2,
        TimeUnit.MINUTES);
    assertAcked(
        client().admin().indices().prepareUpdateSettings("full")
            .setSettings(Settings.builder().put("index.store.nvm.pool.size", "128mb")));
    assertAcked(client().admin().indices().prepareOpen("full"));
    ensureGreen(TimeValue.timeValueMinutes(2), "full");
    refresh("full");
    assertEquals(
        "acknowledged documents after growing the pool",
        acknowledged.size(),
        count("full", QueryBuilders.idsQuery().addIds(acknowledged.toArray(String[]::new)), null));
  }

  private void createNvmIndex(String name, String poolSize) {
    assertAcked(
        prepareCreate(name)
            .setSettings(
                Settings.builder()
                    .put("index.codec", Nvm105Codec.ALIAS)
                    .put("index.store.type", "nvm")
                    .put("index.store.nvm.pool.size", poolSize)
                    .put("index.number_of_shards", 1)
                    .put("index.number_of_replicas", 1)
                    .put("index.refresh_interval", "200ms")
                    .put("index.translog.durability", "request")
                    .put("index.shard.check_on_startup", true))
            .setMapping("body", "type=text", "tag", "type=keyword"));
    ensureGreen(name);
  }

  /**
   * Bulk-indexes documents {@code from} (inclusive) to {@code to} (exclusive) in requests of 500
   * and returns the IDs the cluster acknowledged; stops after the first request with a failed item.
   * Document {@code i} has body {@code "doc i term<i % 50>"} and {@code words} filler words.
   */
  private static List<String> index(String index, int from, int to, int words) {
    List<String> acknowledged = new ArrayList<>();
    for (int start = from; start < to; start += 500) {
      BulkRequestBuilder bulk = client().prepareBulk().setTimeout(TimeValue.timeValueSeconds(10));
      for (int i = start; i < Math.min(to, start + 500); i++) {
        StringBuilder body = new StringBuilder("doc " + i + " term" + (i % TERMS));
        for (int w = 0; w < words; w++) {
          body.append(" w").append((i * 7919L + w * 104729L) % 200_003);
        }
        bulk.add(client().prepareIndex(index).setId(Integer.toString(i)).setSource("body", body.toString(), "tag", "t" + (i % 7)));
      }
      BulkResponse response = bulk.get();
      for (BulkItemResponse item : response.getItems()) {
        if (!item.isFailed()) {
          acknowledged.add(item.getId());
        }
      }
      if (response.hasFailures()) {
        break;
      }
    }
    return acknowledged;
  }

  /** The exact counts of known queries, asked of each copy of shard 0 in turn. */
  private void assertSearchableOnEveryCopy(String index, int n) {
    for (String node : copyNodes(index)) {
      String where = index + " on " + node;
      assertEquals(where, n, count(index, QueryBuilders.matchAllQuery(), node));
      assertEquals(where, n, count(index, QueryBuilders.termQuery("body", "doc"), node));
      for (int k : new int[] {0, 7, 49}) {
        long expected = n / TERMS + (k < n % TERMS ? 1 : 0);
        assertEquals(where + " term" + k, expected, count(index, QueryBuilders.termQuery("body", "term" + k), node));
      }
    }
  }

  private static long count(String index, QueryBuilder query, String onlyNode) {
    var search = client().prepareSearch(index).setQuery(query).setSize(0).setTrackTotalHits(true);
    if (onlyNode != null) {
      search.setPreference("_only_nodes:" + nodeId(onlyNode));
    }
    return search.get().getHits().getTotalHits().value();
  }

  /**
   * Each copy of shard 0 is an {@link NvmShardDirectory} whose last commit's segments are all
   * written by the nvm codec, and the shard's {@code index/} folder holds only the files that stay
   * on the file system; the rest is in the pool.
   */
  private void assertCopiesOnNvm(String index) throws Exception {
    flush(index);
    for (String node : copyNodes(index)) {
      IndexService service = internalCluster().getInstance(IndicesService.class, node).indexServiceSafe(resolveIndex(index));
      IndexShard shard = service.getShard(0);
      assertTrue(node, FilterDirectory.unwrap(shard.store().directory()) instanceof NvmShardDirectory);
      SegmentInfos commit = shard.store().readLastCommittedSegmentsInfo();
      assertTrue(node + ": no segments", commit.size() > 0);
      for (SegmentCommitInfo segment : commit) {
        assertEquals(node + " " + segment.info.name, Nvm105Codec.NAME, segment.info.getCodec().getName());
      }
      Path shardPath = shard.shardPath().getDataPath();
      assertTrue(Files.isRegularFile(shardPath.resolve("nvm/index.pool")));
      try (Stream<Path> files = Files.list(shardPath.resolve("index"))) {
        for (Path file : (Iterable<Path>) files::iterator) {
          String name = file.getFileName().toString();
          assertTrue(node + ": unexpected file outside the pool: " + name, NvmShardDirectory.isFileResident(name));
        }
      }
    }
  }

  private List<String> copyNodes(String index) {
    IndexShardRoutingTable shard = getClusterState().routingTable().index(index).shard(0);
    List<String> nodes = new ArrayList<>();
    shard.activeShards().forEach(copy -> nodes.add(getClusterState().nodes().get(copy.currentNodeId()).getName()));
    assertEquals("active copies of [" + index + "][0]", 2, nodes.size());
    return nodes;
  }

  private String freeNodeName(String index) {
    Set<String> free = new HashSet<>(internalCluster().getDataNodeNames());
    copyNodes(index).forEach(free::remove);
    assertEquals(free.toString(), 1, free.size());
    return free.iterator().next();
  }

  private static String nodeId(String nodeName) {
    return internalCluster().clusterService(nodeName).localNode().getId();
  }
}
