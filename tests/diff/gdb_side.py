# The differential test's gdb side (tests/diff/diff_gdb.py runs it as
# gdb -batch -ex "python DIFF_CONF='CONF.json'" -x gdb_side.py --args ...).
#
# Runs the workload the way pinrun does for bpfprobe's run (randomization
# off, AT_RANDOM's 16 bytes fixed), puts a temporary breakpoint on every
# candidate address of the module once it is mapped, and at each one's
# first hit writes what gdb reads there: every parameter and local in
# scope at that address (the blocks around it, inlined functions'
# included, the innermost of a name first within each function's source,
# each with that function and how many inlined calls deep it is) and, for a
# struct or a pointer
# to one, its scalar members (a type only declared there completed as gdb
# completes it). Values are bit patterns of their type's width; floats
# their IEEE bits. One JSON object per hit point, a line each.
import json
import os
import struct

import gdb

CONF = json.load(open(DIFF_CONF))  # noqa: F821 (set by -ex before -x)
MAX_FIELDS = 64

SCALARS = {gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR, gdb.TYPE_CODE_BOOL,
           gdb.TYPE_CODE_ENUM, gdb.TYPE_CODE_PTR}
RECORDS = {gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION}


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def at_random():
    for line in run("info auxv").splitlines():
        f = line.split()
        if len(f) >= 2 and f[1] == "AT_RANDOM":
            return int(f[-1], 16)
    raise RuntimeError("no AT_RANDOM in info auxv")


def module_base():
    """The module's load bias: where its first byte (file offset 0) is
    mapped, less the link-time address of that byte (0 but in a non-PIE
    executable)."""
    want = os.path.realpath(CONF["module"])
    try:
        maps = run("info proc mappings")
    except gdb.error:
        return None
    for line in maps.splitlines():
        f = line.split()
        if len(f) >= 5 and f[-1] == want and int(f[3], 16) == 0:
            return int(f[0], 16) - CONF["vaddr0"]
    return None


def alive():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0


def error_text(e):
    s = str(e)
    if "optimized out" in s:
        return "absent", s
    return "error", s


def scalar(v, bits=0):
    """(status, value, width in bits, message) of a value."""
    try:
        t = v.type.strip_typedefs()
        # DW_OP_implicit_pointer: no address, though int() would say 0
        if t.code == gdb.TYPE_CODE_PTR and "<synthetic pointer>" in str(v):
            return "implicit", None, 0, "synthetic pointer"
        if t.code in RECORDS or t.code == gdb.TYPE_CODE_ARRAY:
            return "aggregate", None, 0, None
        if t.code not in SCALARS and t.code != gdb.TYPE_CODE_FLT:
            return "skip", None, 0, "type code %d" % t.code
        if v.is_optimized_out:
            return "absent", None, 0, "optimized out"
        v.fetch_lazy()
        width = bits or t.sizeof * 8
        if t.code == gdb.TYPE_CODE_FLT:
            if t.sizeof == 4:
                n = struct.unpack("<I", struct.pack("<f", float(v)))[0]
            elif t.sizeof == 8:
                n = struct.unpack("<Q", struct.pack("<d", float(v)))[0]
            else:
                return "skip", None, 0, "a float of %d bytes" % t.sizeof
        else:
            n = int(v)
        return "ok", n & ((1 << width) - 1), width, None
    except (gdb.error, gdb.MemoryError, OverflowError, ValueError) as e:
        st, msg = error_text(e)
        return st, None, 0, msg


def entry(name, v, bits=0):
    st, n, width, msg = scalar(v, bits)
    e = {"expr": name, "st": st}
    if n is not None:
        e["v"] = n
        e["bits"] = width
    if msg:
        e["msg"] = msg[:200]
    return e


def members(name, v, out):
    """Scalar members one level down of a struct or of what a pointer
    points to."""
    try:
        t = v.type.strip_typedefs()
        if t.code == gdb.TYPE_CODE_PTR:
            target = t.target().strip_typedefs()
            if target.code not in RECORDS:
                return
            sep, rec, obj = "->", target, None
        elif t.code in RECORDS:
            sep, rec, obj = ".", t, v
        else:
            return
        fields = [f for f in rec.fields() if f.name and not f.is_base_class][:MAX_FIELDS]
    except gdb.error:
        return
    for f in fields:
        ft = f.type.strip_typedefs()
        if ft.code not in SCALARS and ft.code != gdb.TYPE_CODE_FLT:
            continue
        expr = name + sep + f.name
        try:
            base = obj if obj is not None else v.dereference()
            mv = base[f.name]
        except (gdb.error, gdb.MemoryError) as e:
            st, msg = error_text(e)
            out.append({"expr": expr, "st": st, "msg": msg[:200], "member": True})
            continue
        e = entry(expr, mv, f.bitsize or 0)
        e["member"] = True
        out.append(e)


def is_enumerator(s):
    """An enum's constant (a function's own enum), not a variable."""
    if not s.is_constant:
        return False
    t = s.type.strip_typedefs()
    return t.code == gdb.TYPE_CODE_ENUM and any(f.name == s.name for f in t.fields())


def visible(pc):
    """Parameters and locals in scope at pc, with the function whose source
    scope holds each (an inlined function's, then its caller's, ...): the
    innermost of a name first within each function."""
    chain, b = [], gdb.block_for_pc(pc)
    while b is not None and not b.is_static and not b.is_global:
        chain.append(b)
        b = b.superblock
    out, seen, depth = [], set(), 0
    for i, b in enumerate(chain):
        fn = next((c.function for c in chain[i:] if c.function is not None), None)
        for s in b:
            if not (s.is_argument or s.is_variable or s.is_constant) or \
                    is_enumerator(s) or (depth, s.name) in seen:
                continue
            seen.add((depth, s.name))
            out.append((s, depth, fn))
        if b.function is not None:
            depth += 1
    return out


def function_at(pc):
    b = gdb.block_for_pc(pc)
    while b is not None and b.function is None:
        b = b.superblock
    return b.function.name if b is not None and b.function is not None else None


def frame_of(frames, fn):
    """The frame of function fn at this pc: an inlined function's own
    (whose caller gdb's DW_OP_entry_value looks at), else the newest."""
    for f in frames:
        g = f.function()
        if fn is not None and g is not None and g.name == fn.name and g.line == fn.line:
            return f
    return frames[0]


def evaluate(frame, pc, link):
    frames, f = [frame], frame
    while f is not None and f.type() == gdb.INLINE_FRAME:
        f = f.older()
        if f is not None:
            frames.append(f)
    out = []
    for s, depth, fn in visible(pc):
        where = {"fn": fn.name if fn is not None else None, "depth": depth}
        first = len(out)
        try:
            v = s.value(frame_of(frames, fn))
        except (gdb.error, gdb.MemoryError) as e:
            st, msg = error_text(e)
            out.append({"expr": s.name, "st": st, "msg": msg[:200]})
        else:
            out.append(entry(s.name, v))
            members(s.name, v, out)
        for e in out[first:]:
            e.update(where)
    return {"addr": link, "func": function_at(pc), "exprs": out}


def main():
    for cmd in ("set pagination off", "set confirm off", "set width 0",
                "set startup-with-shell off", "set disable-randomization on",
                "set breakpoint pending on", "set print frame-info short-location",
                "unset environment LINES", "unset environment COLUMNS"):
        run(cmd)
    run("starti")
    gdb.selected_inferior().write_memory(at_random(), bytes.fromhex(CONF["at_random"]))
    base = module_base()
    if base is None:
        run("set stop-on-solib-events 1")
        while base is None and alive():
            run("continue")
            base = module_base()
        run("set stop-on-solib-events 0")
    if base is None:
        raise RuntimeError("the module was never mapped")
    pending = set(CONF["candidates"])
    for a in sorted(pending):
        gdb.Breakpoint("*0x%x" % (base + a), internal=True, temporary=True)
    out = open(CONF["out"], "w")
    out.write(json.dumps({"base": base, "pid": gdb.selected_inferior().pid}) + "\n")
    while pending and alive():
        try:
            run("continue")
        except gdb.error:
            break
        if not alive():
            break
        frame = gdb.newest_frame()
        pc = frame.pc()
        link = pc - base
        if link not in pending:
            continue
        pending.discard(link)
        out.write(json.dumps(evaluate(frame, pc, link)) + "\n")
        out.flush()
    out.close()
    if alive():
        run("kill")


try:
    main()
except Exception as e:  # said to the harness, which fails on it
    with open(CONF["out"] + ".err", "w") as f:
        f.write("%s: %s\n" % (type(e).__name__, e))
