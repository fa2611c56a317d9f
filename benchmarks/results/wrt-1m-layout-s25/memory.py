"""Per engine row and round of run.sh's output: DRAM peak, largest DRAM segment, sampled live-segment bytes,
segments at the end, the most segments per partition sampled, writers' slot wait, close and reopen times.
usage: memory.py <run.sh output>"""
import csv, glob, sys
print("| row-round | DRAM peak MB | largest DRAM segment MB | live segments' sampled max MB | segments at the end | max segments | slot wait s | close ms | reopen ms |")
print("|---|---|---|---|---|---|---|---|---|")
for e in sorted(glob.glob(f"{sys.argv[1]}/*-r*/run1/engine.csv")):
    for r in csv.DictReader(open(e)):
        mb = lambda k: f"{int(r[k]) / 1e6:,.1f}"
        print(f"| {e.split('/')[-3]} | {mb('peak_dram_bytes')} | {mb('largest_dram_segment_bytes')} | {mb('sampled_max_live_bytes')} | "
              f"{r['end_segments'].strip('{}').replace('  ', ' ')} | {r['max_segments_per_partition']} | "
              f"{float(r['segment_wait_ms']) / 1000:.0f} | {float(r['close_ms']):,.0f} | {float(r['reopen_ms']):,.0f} |")
