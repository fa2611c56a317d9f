# Host speed probe: a fixed pure-Python loop, timed in batches; prints "epoch_seconds batch_ms" per batch.
import sys, time
end = time.time() + float(sys.argv[1])
while time.time() < end:
    t = time.perf_counter()
    x = 0
    for i in range(300000):
        x = (x * 31 + i) & 0xFFFFFFFF
    print("%.1f %.1f" % (time.time(), (time.perf_counter() - t) * 1000), flush=True)
    time.sleep(0.5)
