// Norm reads (one per scored document) per query class on plain Lucene, for a segment layout: args corpus tasks docs tailSegmentDocs tailSegments. Run: java --add-modules jdk.incubator.vector -Xmx6g -cp benchmarks/target/benchmarks.jar NormReads.java <corpus> <tasks> 200000 10000 5
import java.io.*; import java.nio.file.*; import java.util.*;
import org.apache.lucene.analysis.standard.StandardAnalyzer; import org.lucenenvm.bench.TaskFile; import org.lucenenvm.bench.Workload;
import org.apache.lucene.document.*; import org.apache.lucene.index.*; import org.apache.lucene.search.*; import org.apache.lucene.store.*;
public class NormReads {
  static long reads;
  static final class CountingNorms extends NumericDocValues {
    final NumericDocValues in; CountingNorms(NumericDocValues in){this.in=in;}
    public long longValue() throws IOException { return in.longValue(); }
    public boolean advanceExact(int t) throws IOException { reads++; return in.advanceExact(t); }
    public void longValues(int size, int[] docs, long[] values, long def) throws IOException { reads+=size; in.longValues(size, docs, values, def); }
    public int docID(){return in.docID();} public int nextDoc() throws IOException {return in.nextDoc();}
    public int advance(int t) throws IOException {return in.advance(t);} public long cost(){return in.cost();}
  }
  static final class Wrap extends FilterDirectoryReader {
    Wrap(DirectoryReader in) throws IOException { super(in, new SubReaderWrapper(){ public LeafReader wrap(LeafReader r){ return new FilterLeafReader(r){
      public NumericDocValues getNormValues(String f) throws IOException { NumericDocValues n=in.getNormValues(f); return n==null?null:new CountingNorms(n);} 
      public CacheHelper getCoreCacheHelper(){return null;} public CacheHelper getReaderCacheHelper(){return null;} };}}); }
    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException { return new Wrap(in); }
    public CacheHelper getReaderCacheHelper(){return null;}
  }
  static Document doc(String line){ String[] p=line.split("\t"); Document d=new Document(); d.add(new TextField("body", p.length>2?p[2]:"", Field.Store.NO)); return d; }
  public static void main(String[] a) throws Exception {
    List<String> lines=Files.readAllLines(Path.of(a[0])); int n=Integer.parseInt(a[2]); int tailSeg=Integer.parseInt(a[3]); int tailSegs=Integer.parseInt(a[4]);
    Path dir=Files.createTempDirectory(Path.of("/dev/shm"),"exp");
    try (FSDirectory d=new MMapDirectory(dir)) {
      int head=n-tailSeg*tailSegs;
      try (IndexWriter w=new IndexWriter(d,new IndexWriterConfig(new StandardAnalyzer()).setRAMBufferSizeMB(256))) { for(int i=0;i<head;i++) w.addDocument(doc(lines.get(i))); w.forceMerge(1); }
      try (IndexWriter w=new IndexWriter(d,new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE))) {
        for(int s=0;s<tailSegs;s++){ for(int i=0;i<tailSeg;i++) w.addDocument(doc(lines.get(head+s*tailSeg+i))); w.flush(); } }
      try (DirectoryReader r=new Wrap(DirectoryReader.open(d))) {
        IndexSearcher s=new IndexSearcher(r); s.setQueryCache(null);
        StringBuilder sizes=new StringBuilder(); for(LeafReaderContext c:r.leaves()) sizes.append(c.reader().maxDoc()).append(' ');
        System.out.println("leaves: "+sizes);
        Map<String,long[]> per=new TreeMap<>();
        for(var c:Workload.parse(TaskFile.read(Path.of(a[1])), List.of(), "body", new StandardAnalyzer(), 42).byCategory().entrySet()) for(Query query:c.getValue()){ String cat=c.getKey();
          long before=reads; s.search(query,10); long[] v=per.computeIfAbsent(cat,k->new long[2]); v[0]+=reads-before; v[1]++; }
        for(var e:per.entrySet()) System.out.printf("%-12s norm reads per query %,10.0f%n", e.getKey(), (double)e.getValue()[0]/e.getValue()[1]);
      }
    } finally { try(var st=Files.walk(dir)){ st.sorted(Comparator.reverseOrder()).forEach(p->p.toFile().delete()); } }
  }
}
