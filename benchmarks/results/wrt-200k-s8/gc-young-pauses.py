# young-pause composition from a -Xlog:gc*=debug log: object copy ms, survivor/old bytes copied, pause ms (second half of the GCs)
import re,sys,statistics as st
t=open(sys.argv[1]).read()
rows=[]
for gc in sorted(set(int(x) for x in re.findall(r"GC\((\d+)\)\s+Object Copy",t))):
    oc=float(re.search(rf"GC\({gc}\)\s+Object Copy \(ms\):\s+Min:\s+[\d.]+, Avg:\s+([\d.]+)",t).group(1))
    m=re.search(rf"GC\({gc}\) Young PLAB allocation: allocated: \d+B, wasted: \d+B, unused: \d+B, used: (\d+)B",t)
    d=re.search(rf"GC\({gc}\) Young other allocation: .*?direct allocated: (\d+)B",t)
    o=re.search(rf"GC\({gc}\) Old PLAB allocation: allocated: \d+B, wasted: \d+B, unused: \d+B, used: (\d+)B",t)
    p=re.search(rf"GC\({gc}\) Pause Young[^\n]*?([\d.]+)ms\n",t)
    rows.append((gc,oc,(int(m.group(1)) if m else 0)/1e6+(int(d.group(1)) if d else 0)/1e6,(int(o.group(1)) if o else 0)/1e6,float(p.group(1)) if p else 0))
late=rows[len(rows)//2:]
print(sys.argv[1],"young GCs",len(rows),"(second half",len(late),")")
print("  median: object copy",st.median(r[1] for r in late),"ms; to survivor",round(st.median(r[2] for r in late),1),"MB; to old",round(st.median(r[3] for r in late),1),"MB; pause",st.median(r[4] for r in late),"ms")
print("  MB copied per ms of object copy", round(sum(r[2]+r[3] for r in late)/sum(r[1] for r in late),2))
