#!/usr/bin/env python3
"""Young and full collections of each service process within each phase's wall-clock window (-Xlog:gc time decorations)."""
import re, sys
# (run, phase, from, to) and per run the service -> pid, as recorded during the runs
runs = {1: {'ingest': 22767, 'decoder': 22483, 'rules': 22489, 'notify': 22493},
        2: {'ingest': 23778, 'decoder': 23495, 'rules': 23500, 'notify': 23506}}
phases = [(1, 'cold', '18:40:41', '18:41:46'), (1, 'warm', '18:41:47', '18:42:52'),
          (2, 'cold', '18:43:34', '18:44:40'), (2, 'warm', '18:44:41', '18:45:45')]
line = re.compile(r'^\[\S+T(\d\d:\d\d:\d\d)\.\d+\S*\]\[[^]]+\] GC\(\d+\) Pause (Young|Full) .*->.* ([\d.]+)ms$')
print('| run, phase | service | young collections | their pauses, ms | longest, ms | full collections |')
print('|---|---|---|---|---|---|')
for run, phase, start, end in phases:
    for service, pid in runs[run].items():
        young = []; full = 0
        for l in open(f'{sys.argv[1]}/gc-{pid}.log'):
            m = line.match(l.strip())
            if m and start <= m.group(1) <= end:
                if m.group(2) == 'Young': young.append(float(m.group(3)))
                else: full += 1
        print(f'| {run}, {phase} | {service} | {len(young)} | {sum(young):.0f} | {max(young, default=0):.1f} | {full} |')
