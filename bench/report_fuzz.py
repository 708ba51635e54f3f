"""Turns the jqwik reports and surefire XML of bench/fuzz.sh into the Markdown table of docs/benchmarks/fuzz.md.

Usage: report_fuzz.py RAW_DIR MODULE=TRIES... ; RAW_DIR holds, per module, the surefire -output.txt files (jqwik
prints its report and the property's statistics there) and the TEST-*.xml files (time, failures), which
fuzz.sh deletes once the report is written.
"""
import glob
import os
import re
import sys

raw, modules = sys.argv[1], [m.split("=")[0] for m in sys.argv[2:]]
REPORT = re.compile(r"^timestamp = \S+, (\w+):(\w+) = $")
STATS = re.compile(r"^timestamp = \S+, \[(\w+):(\w+)\] \((\d+)\) outcome = $")
ENTRY = re.compile(r"^\s+(.*?)\s+\(\s*(\d+)\) :\s+([\d.]+) %$")
KEY = re.compile(r"^(tries|checks|seed)\s+=\s+(\S+)")
TESTCASE = re.compile(r'<testcase name="(?P<name>[^"]*)" classname="(?P<classname>[^"]*)" time="(?P<time>[^"]*)"'
                      r'(?:/>|>(?P<body>.*?)</testcase>)', re.S)


def properties(module):
    found = {}
    for path in sorted(glob.glob(os.path.join(raw, module, "*-output.txt"))):
        current, stats = None, None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                if m := STATS.match(line):
                    stats = found.setdefault((m[1], m[2]), {}).setdefault("outcomes", [])
                    current = None
                    continue
                if m := REPORT.match(line):
                    current, stats = found.setdefault((m[1], m[2]), {}), None
                    continue
                if stats is not None and (m := ENTRY.match(line)):
                    stats.append((m[1], int(m[2])))
                    continue
                if current is not None and (m := KEY.match(line)):
                    current[m[1]] = m[2]
    # Read as text: surefire copies the statistics into the XML, where a label may hold a character XML forbids.
    for path in glob.glob(os.path.join(raw, module, "TEST-*.xml")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for case in TESTCASE.finditer(text):
            key = (case["classname"].split(".")[-1], case["name"])
            if key in found:
                found[key]["time"] = float(case["time"] or 0)
                found[key]["failed"] = bool(re.search(r"<(failure|error)\b", case["body"] or ""))
    return found


def outcome_summary(outcomes):
    """The four most frequent outcomes, and every outcome that is a value (how many inputs got all the way)."""
    total = sum(count for _, count in outcomes) or 1
    ranked = sorted(outcomes, key=lambda o: -o[1])
    shown = [o for i, o in enumerate(ranked) if i < 4 or re.search(r"value|decoded|evaluated", o[0])]
    share = lambda count: f"{100 * count / total:.0f}%" if count * 100 >= total else f"{100 * count / total:.2f}%"
    more = len(outcomes) - len(shown)
    return "; ".join(f"{label} {share(count)}" for label, count in shown) + (f"; {more} more" if more > 0 else "")


total_tries, total_failed, total_time, rows = 0, 0, 0.0, []
for module in modules:
    for (cls, prop), data in sorted(properties(module).items()):
        tries = int(data.get("tries", 0))
        failed = 1 if data.get("failed") else 0
        total_tries += tries
        total_failed += failed
        total_time += data.get("time", 0.0)
        rows.append(f"| {module} | `{cls}.{prop}` | {tries:,} | {data.get('seed', '?')} | {data.get('time', 0):.1f} "
                    f"| {failed} | {outcome_summary(data.get('outcomes', []))} |")
print("| module | property | tries | seed | time (s) | failures | outcomes (share of tries) |")
print("|---|---|---|---|---|---|---|")
print("\n".join(rows))
print()
print(f"**Total: {total_tries:,} generated inputs over {len(rows)} properties, {total_failed} failing, "
      f"{total_time / 60:.1f} min of property time.**")
sys.exit(1 if total_failed or not rows else 0)
