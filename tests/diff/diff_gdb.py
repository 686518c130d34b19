#!/usr/bin/env python3
"""The differential test against gdb (issue 29).

For each target (Debian's liblua5.4 under a Lua script, python3.11 under a
Python script, libdb-5.3 under a small C program of ours; their -dbg
packages' DWARF), probe points are drawn at random, seeded: out-of-line
functions' entries, inlined copies' entries (a name at random, then one of
its copies) and return addresses right after calls. Both tools then run
the same workload, identically:

  - gdb (tests/diff/gdb_side.py) puts a temporary breakpoint on each and,
    at each one's first hit, reads every parameter and local in scope
    (with the function whose source holds each, read in that function's
    frame) and the scalar members one level below them;
  - at the hit points, the variables of the function the point names (the
    inlined copy at its entry, else the out-of-line function) and up to
    --members of each one's members are resolved by bpfprobe's resolver
    at the same address, each alone (tests/diff/diff_resolve.c), with the
    variables only bpfprobe lists; a program per point (up to 15
    expressions a program) records the values at the first hit.

Both runs see the same process: address space randomization off, the 16
bytes at AT_RANDOM fixed (tests/diff/pinrun.c; gdb writes them itself),
in a PID namespace of its own the pid gdb's inferior had, the clock a
counter (tests/diff/fixtime.c), the same environment and directory, and
the kernel's [uprobes] page made at the same moment in both (a uprobe in
the dynamic loader's first function, at an instruction the kernel steps
out of line, before anything else is mapped).

Each expression is then: agree (the same bits at gdb's width), disagree,
bpfprobe-only (gdb has no value: optimized out, or no such variable
there), gdb-only (bpfprobe refuses it, or its fetch faults), neither, or
in xmm: a value gdb reads in a floating-point register, which no BPF
program can read (bpfprobe vars calls it fp_register, not fetchable): not
compared, counted apart. A disagreement or a gdb-only case fails the run
unless a rule of GDB_FAULTS below, each with its reason, says it is gdb's
own fault.

  diff_gdb.py [--large] [--seed N] [--targets lua,python,db] [--points N]
              [--sample N] [--members N] [--keep DIR] [--verbose]

Prints "PASS diff_gdb_TARGET" / "FAIL diff_gdb_TARGET: why" lines (the
test suite's), each case that fails or is gdb's fault, and a table;
--keep DIR keeps every file (the points, both runs' values, the generated
program) and writes DIR/report.json.
"""
import argparse
import bisect
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(TOP, "build")
DIFF = os.path.join(BUILD, "diff")
BPFPROBE = os.environ.get("BPFPROBE", os.path.join(BUILD, "bpfprobe"))
# another build's resolver (the same file built against it), to compare
DIFF_RESOLVE = os.environ.get("DIFF_RESOLVE", os.path.join(DIFF, "diff_resolve"))
AT_RANDOM = "1032547698badcfe0123456789abcdef"  # pinrun.c's fixed_random
LDSO = "/lib64/ld-linux-x86-64.so.2"
PER_PROG = 15

TARGETS = {
    "lua": {
        "module": "/usr/lib/x86_64-linux-gnu/liblua5.4.so.0",
        "cmd": [os.path.join(DIFF, "lua_host"), os.path.join(TOP, "tests/diff/workload.lua")],
        "pkg": "liblua5.4-0-dbg",
    },
    "python": {
        "module": "/usr/bin/python3.11",
        "cmd": ["/usr/bin/python3.11", "-B", "-s", "-S", os.path.join(TOP, "tests/diff/workload.py")],
        "pkg": "python3.11-dbg",
    },
    "db": {
        "module": "/usr/lib/x86_64-linux-gnu/libdb-5.3.so",
        "cmd": [os.path.join(DIFF, "db_work")],
        "pkg": "libdb5.3-dbg",
    },
}

# The environment of both runs, in this order (gdb appends LD_PRELOAD,
# which must not preload into gdb itself, last).
ENV = [("PATH", "/usr/bin:/bin"), ("LANG", "C.UTF-8"), ("HOME", "/nonexistent"),
       ("PYTHONHASHSEED", "0")]

# gdb's own faults: a disagreement or a gdb-only case one of these says is
# gdb's is not a failure. Each: a name, the reason, and a test on the
# case (the target, the point, the expression and both sides' results).
GDB_FAULTS = [
    {
        "name": "views-at-inlined-entry",
        "why": "gdb 13 takes a location list's empty, view-qualified range only at "
               "its out-of-line function's entry (dwarf2_find_location_expression "
               "compares pc with the linkage function's entry_pc): at an inlined "
               "copy's entry it reads the range covering the address, of a later "
               "view than the copy's DW_AT_GNU_entry_view; bpfprobe reads the empty "
               "range holding that view, else the lowest (docs/arguments.md)",
        "test": lambda t, p, e: "inline" in p["kinds"] and
        "(location view)" in e["bpf"].get("loc", ""),
    },
]


def log(args, *what):
    if args.verbose:
        print("  ..", *what, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          errors="replace", **kw)


_PIDNS = None


def pidns():
    """The command that runs what follows it as pid 1 of a PID namespace
    with its own /proc. `unshare --mount-proc` makes the new mount
    namespace's / private first, which a chroot's / (not a mount point)
    refuses; there /proc alone is made private in the new namespace, so
    the proc mounted over it stays there, and no other mount is touched."""
    global _PIDNS
    if _PIDNS is None:
        plain = ["unshare", "-pf", "--mount-proc"]
        if run(plain + ["true"]).returncode == 0:
            _PIDNS = plain
        else:
            _PIDNS = ["unshare", "-pf", "--mount", "--propagation", "unchanged", "sh", "-c",
                      'mount --make-rprivate /proc && mount -t proc proc /proc && exec "$@"',
                      "sh"]
    return list(_PIDNS)


# --- candidates -------------------------------------------------------------

def functions(module):
    r = run([BPFPROBE, "funcs", "--json", "-c", module])
    if r.returncode:
        raise RuntimeError("bpfprobe funcs %s: %s" % (module, r.stderr.strip()[-300:]))
    return json.loads(r.stdout)["functions"]


def disassemble(module):
    """Every instruction's address (a set), and the address after every
    call instruction (sorted)."""
    r = run(["objdump", "-d", "--no-show-raw-insn", module])
    insns, rets, after_call = set(), [], False
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(.*)$", line)
        if not m:
            after_call = False
            continue
        a = int(m.group(1), 16)
        insns.add(a)
        if after_call:
            rets.append(a)
        after_call = re.match(r"^(?:\S+\s+)?call", m.group(2)) is not None and "syscall" not in m.group(2)
    return insns, rets


def candidates(rng, funcs, rets, per_kind):
    """{addr: {"kind": ..., "name": ..., "decl": ...}}: out-of-line
    functions' entries, inlined copies' entries (a name at random, then one
    of its copies: a few names have thousands), and return addresses after
    a call in an out-of-line function, per_kind of each at most. The
    function named there is the one whose variables are compared: the
    inlined copy at its entry, else the out-of-line function."""
    outline = [f for f in funcs if f["kind"] == "out-of-line" and f["size"] and f["decl_file"]]
    inline = {}
    for f in funcs:
        if f["kind"] == "inline" and f["addr"] and f["decl_file"]:
            inline.setdefault(f["name"], []).append(f)
    cands = {}

    def add(addr, kind, f):
        cands.setdefault(addr, {"kind": kind, "name": f["name"], "decl": f["decl_file"],
                                "entry": f["addr"]})

    for f in rng.sample(outline, min(per_kind, len(outline))):
        add(f["addr"], "entry", f)
    for name in rng.sample(sorted(inline), min(per_kind, len(inline))):
        f = rng.choice(inline[name])
        add(f["addr"], "inline", f)
    n = 0
    for f in rng.sample(outline, len(outline)):
        if n == per_kind:
            break
        lo = bisect.bisect_left(rets, f["addr"])
        hi = bisect.bisect_left(rets, f["addr"] + f["size"])
        if lo < hi:
            add(rets[rng.randrange(lo, hi)], "after-call", f)
            n += 1
    return cands


def placement(c, addr):
    """The SEC's point: the inlined copy by its name (every copy of that
    name and file is probed, the program keeps the one at addr); an
    out-of-line function FUNC@DECLFILE+OFF."""
    if c["kind"] == "inline":
        return "force=yes;%s@%s" % (c["name"], c["decl"])
    return "inlines=no;force=yes;%s@%s+0x%x" % (c["name"], c["decl"], addr - c["entry"])


# --- the runs ---------------------------------------------------------------

def env_args(preload):
    e = ["%s=%s" % kv for kv in ENV]
    if preload:
        e.append("LD_PRELOAD=%s" % os.path.join(DIFF, "libfixtime.so"))
    return ["env", "-i"] + e


def early_probe(work):
    """A BPF object whose one uprobe, in the dynamic loader's _dl_start at
    an instruction the kernel single-steps out of line, makes the
    [uprobes] page before the workload maps anything: at the same place
    in both runs."""
    fs = [f for f in functions(LDSO) if f["name"] == "_dl_start" and f["kind"] == "out-of-line"]
    if not fs:
        raise RuntimeError("no _dl_start in %s's DWARF (libc6-dbg)" % LDSO)
    f = fs[0]
    r = run(["objdump", "-d", "--no-show-raw-insn", "--start-address=0x%x" % f["addr"],
             "--stop-address=0x%x" % (f["addr"] + f["size"]), os.path.realpath(LDSO)])
    off = None
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if m and m.group(2) not in ("endbr64", "push", "nop", "jmp", "call", "ret") \
                and not m.group(2).startswith("nop"):
            off = int(m.group(1), 16) - f["addr"]
            break
    if off is None:
        raise RuntimeError("no instruction to step in _dl_start")
    prog = 'SEC("exec=%s;func=_dl_start+0x%x") int early(void *ctx) { return 0; }' % (LDSO, off)
    src = os.path.join(work, "early.c")
    with open(src, "w") as fd:
        fd.write("#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n%s\n"
                 'char LICENSE[] SEC("license") = "GPL";\n' % prog)
    return [BPFPROBE, "load", "-q", "--no-map-dump", src, "--"], prog


def first_vaddr(module):
    """The link-time address of the module's first byte (its first
    PT_LOAD's, at file offset 0): 0 but in a non-PIE executable."""
    r = run(["readelf", "-lW", module])
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and int(f[1], 16) == 0:
            return int(f[2], 16)
    raise RuntimeError("%s: no PT_LOAD at file offset 0" % module)


def gdb_run(args, t, cands, work, early):
    conf = os.path.join(work, "%s.gdb.json" % t["name"])
    out = os.path.join(work, "%s.gdb.out" % t["name"])
    with open(conf, "w") as f:
        json.dump({"module": t["module"], "candidates": sorted(cands), "out": out,
                   "at_random": AT_RANDOM, "vaddr0": first_vaddr(t["module"])}, f)
    cmd = early + env_args(False) + pidns() + [
        "gdb", "-nx", "-batch",
        "-ex", "python DIFF_CONF=%r" % conf,
        "-ex", "set environment LD_PRELOAD=%s" % os.path.join(DIFF, "libfixtime.so"),
        "-x", os.path.join(TOP, "tests/diff/gdb_side.py"), "--args"] + t["cmd"]
    log(args, "gdb:", len(cands), "breakpoints")
    r = run(cmd, cwd=work, timeout=args.timeout)
    with open(os.path.join(work, "%s.gdb.log" % t["name"]), "w") as f:
        f.write(r.stdout + r.stderr)
    if os.path.exists(out + ".err"):
        raise RuntimeError("gdb: " + open(out + ".err").read().strip())
    if not os.path.exists(out):
        raise RuntimeError("gdb wrote nothing: %s" % (r.stderr.strip()[-300:]))
    lines = [json.loads(l) for l in open(out)]
    return lines[0], lines[1:]


class Resolver:
    """tests/diff/diff_resolve.c, one process per target."""

    def __init__(self, module):
        self.p = subprocess.Popen([DIFF_RESOLVE, module],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *fields):
        self.p.stdin.write("\t".join(fields) + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("diff_resolve died")
            line = line.rstrip("\n")
            if line == ".":
                return out
            out.append(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def why_of(line):
    """The reason in a resolver's failure, without force=yes's lines."""
    s = line[2:] if line.startswith("E ") else line
    return s.split("; SEC(\"", 1)[0]


def c_program(module, points, early):
    """The BPF C file: a program per point and chunk of expressions, and
    the early uprobe the gdb run has too."""
    lines = ["#include <linux/bpf.h>", "#include <bpf/bpf_helpers.h>", "", early, "",
             "struct out { __u64 id; __u64 ip; __u64 err; __u64 v[%d]; };" % PER_PROG,
             "struct out *__bpfprobe_record_events;",
             "struct seen_key { __u64 ip; __u64 id; };",
             "struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, 1 << 22); } events SEC(\".maps\");",
             "struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 65536);",
             "\t__type(key, struct seen_key); __type(value, __u8); } seen SEC(\".maps\");", ""]
    progs = []
    for p in points:
        exprs = [e for e in p["exprs"] if e.get("bpf", {}).get("ok")]
        for c in range(0, len(exprs), PER_PROG):
            chunk = exprs[c:c + PER_PROG]
            pid = len(progs)
            progs.append((p, chunk))
            members = " ".join("__u64 v%d;" % i for i in range(len(chunk)))
            args = " ".join("v%d=%s" % (i, e["expr"]) for i, e in enumerate(chunk))
            copies = " ".join("o->v[%d] = r->v%d;" % (i, i) for i in range(len(chunk)))
            lines += [
                "struct r%d { %s __u64 err; };" % (pid, members),
                'SEC("exec=%s;%s %s")' % (module, p["place"], args),
                "int p%d(void *ctx, struct r%d *r)" % (pid, pid),
                "{",
                "\tstruct seen_key k = { bpf_get_func_ip(ctx), %d };" % pid,
                "\t__u8 one = 1;",
                "\tstruct out *o;",
                "",
                "\tif (bpf_map_update_elem(&seen, &k, &one, BPF_NOEXIST))",
                "\t\treturn 0;",
                "\to = bpf_ringbuf_reserve(&events, sizeof(*o), 0);",
                "\tif (!o)",
                "\t\treturn 0;",
                "\t__builtin_memset(o, 0, sizeof(*o));",
                "\to->id = %d;" % pid,
                "\to->ip = k.ip;",
                "\to->err = r->err;",
                "\t" + copies,
                "\tbpf_ringbuf_submit(o, 0);",
                "\treturn 0;",
                "}", ""]
    lines.append('char LICENSE[] SEC("license") = "GPL";')
    return "\n".join(lines) + "\n", progs


def bpf_run(args, t, points, head, work, early):
    src = os.path.join(work, "%s.bpf.c" % t["name"])
    text, progs = c_program(t["module"], points, early[1])
    with open(src, "w") as f:
        f.write(text)
    if not progs:
        return
    rec = os.path.join(work, "%s.records" % t["name"])
    cmd = [BPFPROBE, "load", "--json", "-q", "--no-map-dump", "-o", rec, src, "--"] + \
        env_args(True) + pidns() + [os.path.join(DIFF, "pinrun"),
                          "--pid", str(head["pid"])] + t["cmd"]
    log(args, "bpfprobe:", len(progs), "programs")
    r = run(cmd, cwd=work, timeout=args.timeout)
    with open(os.path.join(work, "%s.bpf.log" % t["name"]), "w") as f:
        f.write(r.stdout + r.stderr)
    if r.returncode:
        raise RuntimeError("bpfprobe load exited %d: %s" % (r.returncode, r.stderr.strip()[-600:]))
    for line in open(rec):
        d = json.loads(line)
        if d.get("type") != "record":
            continue
        d = d["data"]
        p, chunk = progs[d["id"]]
        if d["ip"] - head["base"] != p["addr"]:
            continue  # another copy of the same name
        for i, e in enumerate(chunk):
            e["bpf"]["value"] = d["v"][i]
            e["bpf"]["fault"] = bool(d["err"] >> i & 1)


# --- one target -------------------------------------------------------------

def same_function(a, b):
    """gdb names a clone after its symbol (PyTuple_Pack.constprop.1),
    DWARF after its source (PyTuple_Pack)."""
    return a is not None and b is not None and a.split(".")[0] == b.split(".")[0]


def expressions(rng, args, gdb_point, fn, inline, bpf_vars):
    """gdb's variables of function fn's source (of the innermost inlined
    copy of that name, or of the out-of-line function: the outermost) and
    their members (up to --members of each variable's), and the variables
    only bpfprobe lists."""
    exprs, by_var = [], {}
    depths = [e["depth"] for e in gdb_point["exprs"] if same_function(e.get("fn"), fn)]
    depth = (min(depths) if inline else max(depths)) if depths else None
    mine = [e for e in gdb_point["exprs"] if e["depth"] == depth]
    for e in mine:
        if e.get("member"):
            var = re.split(r"->|\.", e["expr"], 1)[0]
            by_var.setdefault(var, []).append(e)
        elif e["st"] != "aggregate":
            exprs.append({"expr": e["expr"], "gdb": e})
    for var, ms in by_var.items():
        for e in rng.sample(ms, min(args.members, len(ms))):
            exprs.append({"expr": e["expr"], "gdb": e})
    seen = {e["expr"] for e in mine}
    for name, cls in bpf_vars:
        if name not in seen and cls != "aggregate":
            exprs.append({"expr": name, "gdb": None})
    return exprs


# bpfprobe's refusals of what no BPF program can read: a value in an xmm
# register (pt_regs has none) or computed in floating point (BPF has no
# floating-point instructions); vars calls them fp_register, not fetchable
FP_REFUSAL = re.compile(r"floating-point register|computed in floating point|in floating point")


def classify(e):
    g, b = e["gdb"], e["bpf"]
    g_ok = g is not None and g["st"] == "ok"
    if not b.get("ok") and FP_REFUSAL.search(b.get("why", "")):
        return "xmm"
    b_ok = b.get("ok") and "value" in b and not b.get("fault")
    if g_ok and b_ok:
        bits = g["bits"]
        return "agree" if (b["value"] & ((1 << bits) - 1)) == g["v"] else "disagree"
    if g_ok:
        return "gdb-only"
    if b_ok:
        return "bpfprobe-only"
    return "neither"


def gdb_fault(t, p, e):
    for rule in GDB_FAULTS:
        if rule["test"](t, p, e):
            return rule
    return None


def one_target(args, t, work, early):
    if run(["dpkg", "-s", t["pkg"]]).returncode:
        raise RuntimeError("%s is not installed (make deps installs it)" % t["pkg"])
    rng = random.Random("%s:%s" % (args.seed, t["name"]))
    funcs = functions(t["module"])
    insns, rets = disassemble(t["module"])
    log(args, t["name"], "%d functions, %d return addresses" % (len(funcs), len(rets)))
    cands = candidates(rng, funcs, rets, args.sample)
    head, hits = gdb_run(args, t, cands, work, early[0])
    base = head["base"]
    log(args, t["name"], "%d candidates, %d hit" % (len(cands), len(hits)))
    # the points: hits of each kind in turn, at random, up to --points
    by_kind = {}
    for h in hits:
        by_kind.setdefault(cands[h["addr"]]["kind"], []).append(h)
    for v in by_kind.values():
        rng.shuffle(v)
    chosen, seen = [], set()
    while len(chosen) < args.points and any(by_kind.values()):
        for k in sorted(by_kind):
            while by_kind[k] and by_kind[k][0]["addr"] in seen:
                by_kind[k].pop(0)
            if by_kind[k] and len(chosen) < args.points:
                h = by_kind[k].pop(0)
                seen.add(h["addr"])
                chosen.append(h)
    res = Resolver(t["module"])
    points, unplaced = [], []
    try:
        for h in chosen:
            c = cands[h["addr"]]
            place = placement(c, h["addr"])
            p = {"addr": h["addr"], "func": c["name"], "kinds": [c["kind"]], "place": place}
            vs, errs, copies = [], [], []
            for line in res.ask("V", place, str(h["addr"])):
                f = line.split("\t")
                if f[0] == "v":
                    vs.append((f[1], f[2]))
                elif f[0] == "p":
                    copies.append(int(f[1], 16))
                else:
                    errs.append(line)
            # FUNC+OFF probes every copy of FUNC at +OFF: each must be an
            # instruction's start, or a uprobe there would break the run
            odd = [a for a in copies if a not in insns]
            if odd:
                unplaced.append("0x%x (%s): other copies put +OFF inside an instruction (0x%x)" % (
                    h["addr"], place, odd[0]))
                continue
            if errs and not vs:
                # bpfprobe probes no copy at this address: said, not compared
                unplaced.append("0x%x (%s): %s" % (h["addr"], place, why_of(errs[0])))
                continue
            p["exprs"] = expressions(rng, args, h, c["name"], c["kind"] == "inline", vs)
            for e in p["exprs"]:
                ans = res.ask("R", place, str(h["addr"]), "v0=" + e["expr"])
                a = ans[0] if ans else "E no answer"
                if a.startswith("a\t"):
                    f = a.split("\t")
                    e["bpf"] = {"ok": True, "size": int(f[1]), "signed": f[2] == "1",
                                "bits": int(f[3]), "type": f[4], "loc": f[5] if len(f) > 5 else ""}
                else:
                    e["bpf"] = {"ok": False, "why": why_of(a)}
            points.append(p)
    finally:
        res.close()
    bpf_run(args, t, points, head, work, early)
    counts = {k: 0 for k in ("agree", "disagree", "bpfprobe-only", "gdb-only", "neither",
                             "gdb-fault", "xmm")}
    bad, faults = [], []
    for p in points:
        for e in p["exprs"]:
            c = e["class"] = classify(e)
            rule = gdb_fault(t, p, e) if c in ("disagree", "gdb-only") else None
            if rule:
                # not counted as a disagreement or gdb-only case
                e["gdb_fault"] = rule["name"]
                faults.append((p, e, rule))
                counts["gdb-fault"] += 1
                continue
            if c in ("disagree", "gdb-only"):
                bad.append((p, e))
            counts[c] += 1
    return {"points": points, "counts": counts, "bad": bad, "faults": faults,
            "candidates": len(cands), "hits": len(hits), "unplaced": unplaced}


def describe(p, e):
    g, b = e["gdb"], e["bpf"]
    gs = "none" if g is None else ("0x%x" % g["v"] if g["st"] == "ok" else "%s (%s)" % (g["st"], g.get("msg", "")))
    if not b.get("ok"):
        bs = "refused: " + b["why"]
    elif "value" not in b:
        bs = "never hit"
    elif b.get("fault"):
        bs = "fetch faulted (%s)" % b["loc"]
    else:
        bs = "0x%x (%s)" % (b["value"], b["loc"])
    return "%s at 0x%x (%s, %s) %s: gdb %s, bpfprobe %s" % (
        e["class"], p["addr"], p["func"], "/".join(p["kinds"]), e["expr"], gs, bs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", default=os.environ.get("DIFF_SEED", "29"))
    ap.add_argument("--targets", default="lua,python,db")
    ap.add_argument("--large", action="store_true", help="the large sample: 100 points a target")
    ap.add_argument("--points", type=int, help="hit points compared per target (default 8, --large 100)")
    ap.add_argument("--sample", type=int, help="candidates drawn per kind (default 40, --large 700)")
    ap.add_argument("--members", type=int, default=2, help="members compared per variable")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--keep", help="keep the work files in this directory")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    args.points = args.points or (100 if args.large else 8)
    args.sample = args.sample or (700 if args.large else 40)
    work = args.keep or tempfile.mkdtemp(prefix="diff_gdb.")
    os.makedirs(work, exist_ok=True)
    status, report = 0, {}
    try:
        early = early_probe(work)
        log(args, "early uprobe:", early[1])
        total = {}
        for name in args.targets.split(","):
            t = dict(TARGETS[name], name=name)
            t["module"] = os.path.realpath(t["module"])
            r = one_target(args, t, work, early)
            report[name] = r
            for k, v in r["counts"].items():
                total[k] = total.get(k, 0) + v
            for u in r["unplaced"]:
                print("  no point of bpfprobe's at %s" % u)
            for p, e, rule in r["faults"]:
                print("  gdb's fault (%s: %s): %s" % (rule["name"], rule["why"], describe(p, e)))
            for p, e in r["bad"]:
                print("  " + describe(p, e))
            if r["bad"]:
                status = 1
                print("FAIL diff_gdb_%s: %d disagreements, %d gdb-only cases (above)" % (
                    name, r["counts"]["disagree"], r["counts"]["gdb-only"]))
            else:
                print("PASS diff_gdb_%s" % name)
        print("| target | candidates | hit | points | agree | disagree | bpfprobe-only | gdb-only "
              "| gdb's faults | in xmm (no BPF access) | neither |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, r in report.items():
            c = r["counts"]
            print("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
                name, r["candidates"], r["hits"], len(r["points"]), c["agree"], c["disagree"],
                c["bpfprobe-only"], c["gdb-only"], c["gdb-fault"], c["xmm"], c["neither"]))
        if args.keep:
            with open(os.path.join(work, "report.json"), "w") as f:
                json.dump({n: {"counts": r["counts"], "points": r["points"]} for n, r in report.items()},
                          f, indent=1, default=str)
    except Exception as e:  # noqa: BLE001 (the suite counts a FAIL line)
        print("FAIL diff_gdb: %s: %s" % (type(e).__name__, e))
        status = 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
