#!/usr/bin/env python3
"""sdt_prelinked.py IN OUT DELTA: OUT is IN with its SDT notes written as
prelink leaves them when it moves a binary by DELTA after linking: each
note's marker address, .stapsdt.base address and semaphore address are
DELTA lower than where the binary now has them (the section .stapsdt.base
itself is where it is). A reader that adds (.stapsdt.base's address - the
note's base) to the note's addresses finds the markers where they are."""
import struct
import sys

src, dst, delta = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
b = bytearray(open(src, 'rb').read())
assert b[:4] == b'\x7fELF' and b[4] == 2 and b[5] == 1, 'ELF64 little-endian only'
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)


def shdr(i):
	return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)


stroff = shdr(shstrndx)[4]


def name(i):
	o = stroff + shdr(i)[0]
	return bytes(b[o:b.index(0, o)]).decode()


notes = 0
for i in range(shnum):
	if name(i) != '.note.stapsdt':
		continue
	off, size = shdr(i)[4], shdr(i)[5]
	p = off
	while p < off + size:
		namesz, descsz, ntype = struct.unpack_from('<III', b, p)
		desc = p + 12 + ((namesz + 3) & ~3)
		if ntype == 3 and bytes(b[p + 12:p + 12 + namesz]) == b'stapsdt\0':
			pc, base, sem = struct.unpack_from('<QQQ', b, desc)
			struct.pack_into('<QQQ', b, desc, pc - delta, base - delta,
					 sem - delta if sem else 0)
			notes += 1
		p = desc + ((descsz + 3) & ~3)
assert notes, 'no SDT notes'
open(dst, 'wb').write(b)
