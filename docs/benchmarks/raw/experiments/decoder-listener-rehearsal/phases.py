#!/usr/bin/env python3
"""For each run directory ab.sh left (argv, default /tmp/decoder-listener-ab/*): per service JVM, its C2 (level 4)
compilations before its own readiness and in the 15 s after the stack's (ingest's readiness), and when the
decoder's listener path first ran compiled at any tier and at C2, in seconds from the stack's readiness."""
import collections, datetime, glob, re, sys

KEY = ["UplinkListener::onBatch", "UplinkListener::write", "ListenerConsumer::pollAndInvoke",
       "AbstractFetch::handleFetchSuccess"]
LINE = re.compile(r"^\[([\d.]+)s\]\s+\d+\s+(.{6})\s*(\d)\s+(\S+::\S+)")


def wall(stamp):
    return datetime.datetime.strptime(stamp[:23], "%Y-%m-%dT%H:%M:%S.%f").timestamp()


for run in sorted(sys.argv[1:] or glob.glob("/tmp/decoder-listener-ab/*")):
    try:
        lines = open(f"{run}/warmup.txt").read().splitlines()
    except OSError:
        continue
    start, ready = {}, {}
    for line in lines:
        m = re.search(r"(\S+Z)\s+INFO (\d+) --- \[(\w+)-service\].*process running for ([\d.]+)", line)
        if m:
            start[m.group(3)] = (m.group(2), wall(m.group(1)) - float(m.group(4)))
        m = re.search(r"(\S+Z)\s+INFO \d+ --- \[(\w+)-service\].*Warmed up", line)
        if m:
            ready.setdefault(m.group(2), wall(m.group(1)))
    if "ingest" not in ready:
        continue
    stack_ready = ready["ingest"]
    out = [run.rsplit("/", 1)[-1] + ":"]
    for svc in ["ingest", "decoder", "rules", "notify"]:
        pid, began = start[svc]
        before = after = 0
        first = collections.OrderedDict((k, [None, None]) for k in KEY)
        for line in open(f"{run}/jit/{pid}.log"):
            m = LINE.match(line)
            if not m:
                continue
            t = began + float(m.group(1))
            level, method = int(m.group(3)), m.group(4)
            if level == 4:
                if t < ready[svc]:
                    before += 1
                elif stack_ready <= t < stack_ready + 15:
                    after += 1
            if svc == "decoder":
                for k in KEY:
                    if method.endswith(k):
                        if first[k][0] is None:
                            first[k][0] = t - stack_ready
                        if level == 4 and first[k][1] is None:
                            first[k][1] = t - stack_ready
        out.append(f"{svc} c2 before own ready / 15 s after READY {before}/{after};")
        if svc == "decoder":
            out.append("decoder (first compiled, first C2, s from READY): " + ", ".join(
                f"{k.split('::')[-1]} {'-' if a is None else f'{a:.1f}'}/{'-' if b is None else f'{b:.1f}'}"
                for k, (a, b) in first.items()) + ";")
    print(" ".join(out))
