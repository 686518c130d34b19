# Sourced by gdb at a breakpoint (tests/e2e/stacks.sh): the stack as gdb's
# `bt` sees it, a line per frame, innermost first, down to main (or the
# last frame): "GDBFRAME FUNC inline|- FILE LINE", FILE by its base name,
# "?" and 0 when gdb has no line for the frame.
import gdb


def frames():
    f = gdb.newest_frame()
    while f is not None:
        sal = f.find_sal()
        fn = f.function()
        name = fn.name if fn else (f.name() or "??")
        fname = sal.symtab.filename.split("/")[-1] if sal.symtab else "?"
        kind = "inline" if f.type() == gdb.INLINE_FRAME else "-"
        print("GDBFRAME %s %s %s %d" % (name, kind, fname, sal.line))
        if name == "main":
            break
        f = f.older()


frames()
