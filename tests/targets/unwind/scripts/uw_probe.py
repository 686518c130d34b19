# tests/e2e/unwind.sh: checks the file sys.argv[1] with os.access() from two
# Python functions deep; uw_preload.so takes a stack sample inside the
# access() that os.access makes.
import os
import sys


def probe(path):
    return os.access(path, os.F_OK)


def outer(path):
    return [probe(p) for p in [path]]


outer(sys.argv[1])
