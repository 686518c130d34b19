# What gdb's `bt` would show for a frame 0 at each address of a file (one
# "LABEL ADDR" a line, hex, in $UW_AT_FILE), gdb run on the module offline:
#   AT <label> <func>|<inline|->|<file base name>:<line> ...
# innermost first, as tests/targets/unwind/tool/uw_frames.c --at prints
# ours: the frame's function blocks (an inlined one is nested in another
# function's block), the innermost one's line from the line table, each
# caller of an inlined call at the call's line (the inlined function
# symbol's line and file); without a function block, the minimal symbol.
import os
import re

import gdb


def where(symtab, line):
    if symtab is None or not line:
        return "?:0"
    return "%s:%d" % (os.path.basename(symtab.filename), line)


def msymbol(pc):
    out = gdb.execute("info symbol 0x%x" % pc, to_string=True)
    m = re.match(r"(\S+)( \+ \d+)? in section", out)
    return m.group(1) if m else "??"


def frames_at(pc):
    sal = gdb.find_pc_line(pc)
    loc = where(sal.symtab, sal.line)
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    frames = []
    while block is not None and not block.is_static and not block.is_global:
        func = block.function
        if func is not None:
            inline = not block.superblock.is_static
            frames.append("%s|%s|%s" % (func.print_name, "inline" if inline else "-", loc))
            if not inline:
                break
            # the caller's line: where this inlined call was made
            loc = where(func.symtab, func.line)
        block = block.superblock
    if not frames:
        frames.append("%s|-|%s" % (msymbol(pc), loc))
    return frames


with open(os.environ["UW_AT_FILE"]) as f:
    for text in f:
        label, addr = text.split()
        print("AT %s %s" % (label, " ".join(frames_at(int(addr, 16)))))
