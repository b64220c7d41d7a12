import re, statistics, collections, sys
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'(\S+) (before|after) (\d+): .*? ([\d.]+) micros/op (\d+) ops/sec', line)
    if m: d[(m.group(1),m.group(2))].append(int(m.group(5)))
names=[]
for (n,l) in d:
    if n not in names: names.append(n)
print('| point | before (abee742) | after (e3ea0b3) | after / before |')
print('|---|---|---|---|')
for n in names:
    b=d[(n,'before')]; a=d[(n,'after')]
    if not a or not b: continue
    mb=statistics.median(b); ma=statistics.median(a)
    print(f'| {n} | {mb:,.0f} ({min(b):,}..{max(b):,}) | {ma:,.0f} ({min(a):,}..{max(a):,}) | {ma/mb:.2f} |')
