# The histograms tests/e2e/hist.sh expects, from the target's TRUTH lines
# (stdin): `python3.11 hist_truth.py KIND` prints one JSON line per
# histogram, {"key": K, "hist": [[min, max, count], ...]} with null for an
# open bound, buckets from the first counted to the last. With
# `got KIND`, the same from bpfprobe's JSON output (stdin) instead: map
# KIND's entries, or with KIND trace_NAME the --hist NAME lines (read
# here, not by jq: jq 1.6 rounds integers past 2^53).
import json
import sys

def log2_slot(v):
    if v < 0:
        return 0
    if v == 0:
        return 1
    return v.bit_length() + 1

def log2_bounds(s):
    if s == 0:
        return [None, 0]
    if s == 1:
        return [0, 1]
    k = s - 2
    if k >= 62:
        return [1 << 62, None]
    return [1 << k, 1 << (k + 1)]

def trim(slots, bounds):
    used = [i for i, c in enumerate(slots) if c]
    if not used:
        return []
    return [bounds(i) + [slots[i]] for i in range(used[0], used[-1] + 1)]

def log2_hist(values, nslots=65):
    slots = [0] * 66
    for v in values:
        slots[log2_slot(v)] += 1
    slots[64] += slots[65]		# [2^62, ...): the top powers folded
    return trim(slots[:65], log2_bounds)

def lin_hist(values, lo, hi, step):
    n = (hi - lo) // step
    slots = [0] * (n + 2)
    for v in values:
        if v < lo:
            slots[0] += 1
        elif v >= hi:
            slots[n + 1] += 1
        else:
            slots[(v - lo) // step + 1] += 1
    def bounds(s):
        return [None if s == 0 else lo + (s - 1) * step, None if s > n else lo + s * step]
    return trim(slots, bounds)

if sys.argv[1] == "got":
    for line in sys.stdin:
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if not isinstance(o, dict):
            continue
        if o.get("type") == "map" and o.get("map") == sys.argv[2]:
            for e in o["entries"]:
                h = [[b["min"], b["max"], b["count"]] for b in e["hist"]]
                print(json.dumps({"key": e["key"], "hist": h}, separators=(",", ":")))
        elif "member" in o and sys.argv[2] == "trace_" + o["member"]:
            h = [[b["min"], b["max"], b["count"]] for b in o["hist"]]
            print(json.dumps({"key": o["point"], "hist": h, "count": o["count"],
                              "unread": o["unread"]}, separators=(",", ":")))
    sys.exit(0)

vs, us = [], []
for line in sys.stdin:
    if not line.startswith("TRUTH v="):
        continue
    f = dict(x.split("=") for x in line.split()[1:])
    vs.append(int(f["v"]))
    us.append(int(f["u"]))
kind = sys.argv[1]
out = []
if kind == "by_rest":
    for key in sorted(set(v & 3 for v in vs)):
        out.append({"key": key, "hist": log2_hist([v for v in vs if v & 3 == key])})
elif kind == "linear":
    out.append({"key": 0, "hist": lin_hist(vs, -50, 200, 25)})
elif kind == "unsigned_u":
    out.append({"key": 0, "hist": log2_hist([u >> 1 for u in us])})
elif kind == "trace_v":
    out.append({"key": "hist_value", "hist": log2_hist(vs), "count": len(vs), "unread": 0})
elif kind == "trace_u":
    out.append({"key": "hist_value", "hist": log2_hist(us), "count": len(us), "unread": 0})
for o in out:
    print(json.dumps(o, separators=(",", ":")))
