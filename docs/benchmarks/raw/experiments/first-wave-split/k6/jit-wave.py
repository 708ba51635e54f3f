"""Compilations the stack JVM started in the first wave, from its JIT log (JDK_JAVA_OPTIONS=
-Xlog:jit+compilation=debug:file=DIR/jit-%p.log:timemillis; the stack's is the largest). Arguments: DIR N JIT-LOG."""
import re, sys

from k6wave import first_wave

d, n, log = sys.argv[1], sys.argv[2], sys.argv[3]
client, release, wave_end = first_wave(d, n)
before = {}
wave = []
last_id = 0
for line in open(log):
    m = re.match(r'\[(\d+)ms\]\s+(\d+)\s+([%sbn! ]*?)\s*(\d)\s+(\S+)', line)
    if not m:
        continue
    t, task, level, method = int(m.group(1)) - release, int(m.group(2)), m.group(4), m.group(5)
    if t < 0:
        last_id = max(last_id, task)
        if t >= -3000:
            before[level] = before.get(level, 0) + 1
    elif t <= wave_end:
        wave.append((task, level, method))
print(f"wave: 0..{wave_end:.0f} ms after the release; started in the 3 s before it, by level: {before}; "
      f"last task id issued before it: {last_id}")
print("C2 (level 4) started in the wave:")
for task, level, method in sorted(w for w in wave if w[1] == '4'):
    print(f"  {task} {method}")
others = [w for w in wave if w[1] != '4']
print(f"other levels started in the wave: {len(others)}, task ids {min(w[0] for w in others)}..{max(w[0] for w in others)}")
