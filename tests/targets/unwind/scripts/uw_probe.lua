-- tests/e2e/unwind.sh: from two Lua functions deep, opens the file arg[2]
-- with io.open (arg[1] "open") or loads it with loadfile ("load");
-- uw_preload.so takes a stack sample inside the fopen64() either makes
-- (loadfile's through luaL_loadfilex).
local function use(how, path)
  if how == "open" then
    local f = io.open(path)
    if f then
      f:close()
    end
    return f
  end
  local f, err = loadfile(path)
  return f, err
end

local function outer(how, path)
  local t = {}
  for i = 1, 1 do
    t[i] = use(how, path)
  end
  return t
end

outer(arg[1], arg[2])
