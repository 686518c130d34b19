-- The differential test's Lua workload (tests/diff): a little of
-- everything liblua does (strings and patterns, tables, closures,
-- metatables, coroutines, errors, integers and floats, utf8, the GC),
-- the same on every run (no clock, no addresses printed).
local out = {}
local function emit(...)
	local n, parts = select("#", ...), {}
	for i = 1, n do parts[i] = tostring((select(i, ...))) end
	out[#out + 1] = table.concat(parts, " ")
end

-- strings and patterns
local text = ("the quick brown fox jumps over the lazy dog "):rep(20)
local words = {}
for w in text:gmatch("%a+") do words[#words + 1] = w end
local counts = {}
for _, w in ipairs(words) do counts[w] = (counts[w] or 0) + 1 end
local keys = {}
for k in pairs(counts) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do emit(k, counts[k]) end
emit(text:upper():sub(1, 20), text:find("lazy", 1, true), #text)
emit((text:gsub("o", "0")):sub(1, 30), string.format("%5.2f|%d|%q|%x", 3.14159, 42, "a\nb", 255))
emit(string.rep("ab", 3, ","), ("x"):byte(), string.char(72, 105), ("%d items"):format(7))
emit(("  trim me  "):match("^%s*(.-)%s*$"), ("key=value"):match("(%w+)=(%w+)"))

-- tables, sorting with a comparator, table functions
local t = {}
for i = 1, 200 do t[i] = (i * 7919) % 1009 end
table.sort(t, function(a, b) return a > b end)
emit(t[1], t[100], t[200], #t)
table.insert(t, 1, -1)
table.remove(t, 5)
emit(table.concat(t, ",", 1, 10), select("#", table.unpack(t, 1, 20)))
local packed = table.pack(1, nil, 3)
emit(packed.n, table.move({1, 2, 3}, 1, 3, 2)[3])

-- closures and upvalues
local function counter(start)
	local n = start
	return function(step) n = n + (step or 1); return n end
end
local c1, c2 = counter(10), counter(100)
for i = 1, 50 do c1(); c2(i) end
emit(c1(0), c2(0))

-- metatables and OOP
local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return Vec.new(a.x + b.x, a.y + b.y) end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
Vec.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
Vec.__len = function(v) return math.sqrt(v.x * v.x + v.y * v.y) end
function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
function Vec:scale(k) return Vec.new(self.x * k, self.y * k) end
local acc = Vec.new(0, 0)
for i = 1, 40 do acc = acc + Vec.new(i, -i):scale(2) end
emit(tostring(acc), #Vec.new(3, 4), acc == Vec.new(1640, -1640))
local proxy = setmetatable({}, {__index = function(_, k) return k * 2 end,
	__newindex = function(tb, k, v) rawset(tb, k, v + 1) end})
proxy[1] = 10
emit(proxy[1], proxy[21])

-- coroutines
local gen = coroutine.wrap(function()
	for i = 1, 30 do coroutine.yield(i * i) end
end)
local sum = 0
for _ = 1, 30 do sum = sum + gen() end
emit(sum)
local co = coroutine.create(function(a, b)
	local c = coroutine.yield(a + b)
	local d, e = coroutine.yield(c * 2)
	return d + e
end)
emit(select(2, coroutine.resume(co, 1, 2)), select(2, coroutine.resume(co, 10)),
	select(2, coroutine.resume(co, 3, 4)), coroutine.status(co))

-- errors
local ok, err = pcall(function() error({code = 7}) end)
emit(ok, type(err), err.code)
ok, err = pcall(function() local x = nil; return x.field end)
emit(ok, (err:gsub("^.-:%d+: ", "")))
emit(select(2, xpcall(function() error("deep") end, function(m) return "handled " .. m:sub(-4) end)))

-- numbers
local ints, floats = 0, 0.0
for i = 1, 1000 do ints = ints + i * i; floats = floats + 1 / i end
emit(ints, string.format("%.6f", floats), math.maxinteger // 3, 7 // 2, 7 % -3, 2 ^ 10,
	math.floor(-3.5), math.tointeger(8.0), 1e300 * 1e10, math.type(1), math.type(1.0))
emit(tostring(0 / 0) ~= nil, 3 & 5, 3 | 5, 3 ~ 5, ~0, 1 << 62, 256 >> 4)

-- utf8
local s = "héllo wörld ✓"
emit(utf8.len(s), utf8.char(72, 228, 8364), #s)
for p, cp in utf8.codes("aé✓") do emit(p, cp) end

-- load, string buffers, the GC
local f = load("local a, b = ... return a * b + 1")
emit(f(6, 7))
local parts = {}
for i = 1, 500 do parts[#parts + 1] = tostring(i) end
emit(#table.concat(parts))
collectgarbage("collect")
emit(collectgarbage("count") > 0)
local weak = setmetatable({}, {__mode = "k"})
for i = 1, 100 do weak[{}] = i end
collectgarbage()

io.write(#out, " lines\n")
