#!/usr/bin/env python3
"""Block cache vs record cache hit rates for reads over N records (a model, not a measurement).

Usage: lru_sim.py N REQUESTS [uniform]   (numpy; not part of the build or CI)

Records are placed in sorted-key order at random (YCSB names keys by a hash of the key number),
BLOCK records per data block. A request picks a rank from zipf(N, 0.99) and maps it to a record
through a fixed random permutation (the scrambling). LRU policies of CAP bytes:
blocks (each read inserts its block), rows (each read inserts its record), both (blocks entering
at the hot end or at the cold end).
"""
import sys
from collections import OrderedDict
import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000_000
REQ = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
CAP = 32 << 20
BLOCK = 30          # records per 4 KB block (about 130 bytes each)
BLOCK_BYTES = 4096 + 100
ROW_BYTES = 24 + 100 + 80  # key, value, entry overhead
rng = np.random.default_rng(1)
UNIFORM = len(sys.argv) > 3  # a third argument: uniform keys instead of zipfian
ranks = np.arange(1, N + 1, dtype=np.float64)
p = ranks ** -0.99
cdf = np.cumsum(p); cdf /= cdf[-1]
del p, ranks
perm = rng.permutation(N)
req = rng.integers(0, N, REQ) if UNIFORM else perm[np.searchsorted(cdf, rng.random(REQ))]
blocks_of = req // BLOCK

def lru(items, size, cap):
    c = OrderedDict(); used = 0; hits = 0
    for x in items:
        if x in c:
            c.move_to_end(x); hits += 1
        else:
            c[x] = True; used += size
            while used > cap:
                c.popitem(last=False); used -= size
    return hits / len(items)

def both(cap, blocks_cold=False):
    """Each read inserts its record at the hot end and its block (if missing) at the hot end,
    or with blocks_cold at the cold end (evicted first unless hit again)."""
    c = OrderedDict(); used = 0; row_hits = block_hits = 0
    for r, b in zip(req.tolist(), blocks_of.tolist()):
        if ('r', r) in c:
            c.move_to_end(('r', r)); row_hits += 1; continue
        if ('b', b) in c:
            c.move_to_end(('b', b)); block_hits += 1
        else:
            c[('b', b)] = BLOCK_BYTES; used += BLOCK_BYTES
            if blocks_cold:
                c.move_to_end(('b', b), last=False)
        c[('r', r)] = ROW_BYTES; used += ROW_BYTES
        while used > cap:
            _, s = c.popitem(last=False); used -= s
    return row_hits / REQ, block_hits / REQ

print(f"N={N} requests={REQ} cache={CAP>>20} MB")
print(f"blocks only: hit rate {lru(blocks_of.tolist(), BLOCK_BYTES, CAP):.3f}")
print(f"rows only:   hit rate {lru(req.tolist(), ROW_BYTES, CAP):.3f}")
rh, bh = both(CAP)
print(f"both:        row hits {rh:.3f}, block hits {bh:.3f}, total {rh+bh:.3f}")

rh, bh = both(CAP, blocks_cold=True)
print(f"both, blocks at the cold end: row hits {rh:.3f}, block hits {bh:.3f}, total {rh+bh:.3f}")
