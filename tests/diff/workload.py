# The differential test's Python workload (tests/diff): a little of what
# CPython does (classes, dicts and sets, strings and formatting, the
# parser and compiler, generators, exceptions, integers, json, re,
# sorting), the same on every run: PYTHONHASHSEED=0 (which -I and -E would
# ignore: run with -B -s -S), no clock, no addresses printed.
import json
import re
import sys
from collections import Counter, OrderedDict, defaultdict, namedtuple


class Shape:
    count = 0

    def __init__(self, name, sides):
        self.name = name
        self.sides = sides
        Shape.count += 1

    def area(self):
        return self.sides * 1.5

    def __repr__(self):
        return f"Shape({self.name!r}, {self.sides})"


class Square(Shape):
    __slots__ = ()

    def area(self):
        return super().area() * 2


out = []
shapes = [Shape(f"s{i}", i % 7) if i % 3 else Square(f"q{i}", 4) for i in range(200)]
out.append(sum(s.area() for s in shapes))
out.append(repr(sorted(shapes, key=lambda s: (s.sides, s.name))[:3]))

words = ("the quick brown fox jumps over the lazy dog " * 40).split()
freq = Counter(words)
out.append(freq.most_common(3))
groups = defaultdict(list)
for w in words:
    groups[len(w)].append(w)
out.append({k: len(v) for k, v in sorted(groups.items())})
od = OrderedDict((w, i) for i, w in enumerate(words[:20]))
od.move_to_end("the")
out.append(list(od)[:5])
Point = namedtuple("Point", "x y")
pts = [Point(i, -i) for i in range(50)]
out.append(max(pts, key=lambda p: p.x * p.y))
out.append(len(set(words)) + len(frozenset(range(100)) & set(range(50, 150))))

text = "\n".join(f"line {i}: value={i * i} name=item{i % 13}" for i in range(300))
out.append(len(re.findall(r"value=(\d+)", text)))
out.append(re.sub(r"item(\d+)", lambda m: m.group(1).zfill(3), text)[:60])
out.append("{:>10}|{:<8.3f}|{:#x}|{!r}".format("right", 3.14159, 255, "q"))
out.append("%s-%05d-%.2e" % ("x", 42, 12345.678))
out.append("abc" * 3 + "".join(reversed("hello")) + "MiXeD".swapcase())
out.append(" spaced ".strip().center(20, "*").encode("utf-8").decode("ascii"))
out.append("héllo wörld ✓".encode("utf-8").hex()[:20])

data = {"items": [{"id": i, "tags": [f"t{j}" for j in range(i % 4)], "ok": i % 2 == 0}
                  for i in range(60)], "meta": {"n": 60, "name": "workload"}}
blob = json.dumps(data, sort_keys=True, indent=1)
back = json.loads(blob)
out.append((len(blob), back["meta"], sum(1 for it in back["items"] if it["ok"])))


def gen(n):
    for i in range(n):
        if i % 5 == 0:
            continue
        yield i * i


out.append(sum(gen(1000)))
out.append(list(zip(range(5), map(str, range(5, 10)), filter(None, [0, 1, 2, 0, 3]))))


def fails(n):
    if n == 0:
        raise ValueError("bottom")
    return fails(n - 1)


for depth in (0, 5, 20):
    try:
        fails(depth)
    except ValueError as e:
        out.append((depth, str(e)))
try:
    {}["missing"]
except KeyError as e:
    out.append(repr(e))

big = 1
for i in range(1, 60):
    big *= i
out.append((big % 1000003, big.bit_length(), 2 ** 100 // 3, -7 // 2, divmod(-7, 3)))
out.append(sorted(range(100), key=lambda v: (v % 7, -v))[:10])

code = compile("def f(a, b=2):\n    return [a * x + b for x in range(a)]\n", "<gen>", "exec")
ns = {}
exec(code, ns)
out.append(ns["f"](7))
out.append(eval("sum(i for i in range(100) if i % 3)"))

sys.stdout.write(f"{len(out)} results\n")
