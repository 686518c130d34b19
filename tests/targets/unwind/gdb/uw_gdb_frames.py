# gdb's view of the stack where it stopped, one line per frame in the form
# tests/targets/unwind/tool/uw_frames.c prints, for tests/e2e/unwind.sh:
#   FRAME <n> <func> <inline|-> <file base name>:<line> <module, real path>
# Run inside gdb (source it) with `set backtrace past-main on`.
import os

import gdb


def module_of(frame):
    name = gdb.solib_name(frame.pc()) or gdb.current_progspace().filename
    return os.path.realpath(name) if name else "?"


frame = gdb.newest_frame()
n = 0
while frame is not None:
    sal = frame.find_sal()
    name = frame.name() or "??"
    kind = "inline" if frame.type() == gdb.INLINE_FRAME else "-"
    where = "?:0"
    if sal.symtab is not None and sal.line:
        where = "%s:%d" % (os.path.basename(sal.symtab.filename), sal.line)
    print("FRAME %d %s %s %s %s" % (n, name, kind, where, module_of(frame)))
    frame = frame.older()
    n += 1
