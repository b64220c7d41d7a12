import sys,collections
for f in sys.argv[1:]:
    rows=[l.split() for l in open(f)]
    first={}; last={}
    for t,tid,c,v,n in rows:
        k=(tid,c)
        if k not in first: first[k]=(float(t),int(v),int(n))
        last[k]=(float(t),int(v),int(n))
    agg=collections.Counter()
    for k in last:
        name = 'client' if k[1].startswith('bench') else k[1]
        agg[name+':vol']+=last[k][1]-first[k][1]; agg[name+':invol']+=last[k][2]-first[k][2]
    span=max(v[0] for v in last.values())-min(v[0] for v in first.values())
    print(f, f'{span:.0f}s', ' '.join(f'{k}={v/span:.0f}/s' for k,v in sorted(agg.items())))
