import java.nio.file.*; import java.util.*;
import org.apache.lucene.analysis.standard.StandardAnalyzer; import org.lucenenvm.bench.TaskFile; import org.lucenenvm.bench.Workload;
import org.apache.lucene.index.Term; import org.apache.lucene.search.*;
import org.lucenenvm.realtime.*; import org.lucenenvm.store.NvmDirectory;
public class EngineNormReads {
  public static void main(String[] a) throws Exception {
    List<String> lines=Files.readAllLines(Path.of(a[0])); int n=Integer.parseInt(a[2]);
    Path pool=Path.of("/dev/shm/enr.pool"); Files.deleteIfExists(pool);
    RtSchema schema=RtSchema.builder().text("title").keyword("date").text("body", false).build();
    RtEngineConfig cfg=RtEngineConfig.defaults(schema).withAnalyzer(new StandardAnalyzer()).withMode(DurabilityMode.valueOf(a[3]));
    try (NvmDirectory dir=NvmDirectory.open(pool, 3L<<30); RtEngine e=RtEngine.open(dir,cfg)) {
      for(int i=0;i<n;i++){ String[] p=lines.get(i).split("\t"); e.add(new RtDocument(Long.toString(i), Map.of("title",p[0],"date",p[1],"body",p.length>2?p[2]:""))); }
      Thread.sleep(Long.parseLong(a[4]));
      System.out.println("stats: "+e.stats());
      Map<String,long[]> per=new TreeMap<>();
      for(var c:Workload.parse(TaskFile.read(Path.of(a[1])), List.of(), "body", new StandardAnalyzer(), 42).byCategory().entrySet()) for(Query query:c.getValue()){ String cat=c.getKey();
        long s0=NormCount.SEGMENT.sum(), l0=NormCount.LIVE.sum(); e.search(query,10);
        long[] v=per.computeIfAbsent(cat,k->new long[3]); v[0]+=NormCount.SEGMENT.sum()-s0; v[1]+=NormCount.LIVE.sum()-l0; v[2]++; }
      for(var x:per.entrySet()) System.out.printf("%-12s norm reads per query: segments %,10.0f live %,8.0f%n", x.getKey(), (double)x.getValue()[0]/x.getValue()[2], (double)x.getValue()[1]/x.getValue()[2]);
    } finally { Files.deleteIfExists(pool); }
  }
}
