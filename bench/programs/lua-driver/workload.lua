-- A workload for the Lua interpreters built from merged IR (bench/c-libraries.sh): it prints
-- only what is the same from run to run, in the Lua of versions 5.1 to 5.4.

local function checksum(s)
  local h = 5381
  for i = 1, #s do
    h = (h * 33 + string.byte(s, i)) % 4294967296
  end
  return h
end

-- Tables, sorting with and without a comparator, concatenation.
local t = {}
local seed = 12345
for i = 1, 2000 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  t[i] = seed % 100000
end
table.sort(t)
print("sorted", t[1], t[1000], t[2000])
table.sort(t, function(a, b) return a > b end)
print("reversed", t[1], t[1000], t[2000])
local parts = {}
for i = 1, 200 do parts[#parts + 1] = tostring(t[i]) end
print("concat", checksum(table.concat(parts, ",")))

-- Strings: formatting, patterns, substitution, repetition.
local text = string.rep("the quick brown fox jumps over the lazy dog ", 50)
local words = 0
for w in string.gmatch(text, "%a+") do words = words + 1 end
print("words", words)
local replaced, n = string.gsub(text, "(%a+) (%a+)", "%2 %1")
print("gsub", n, checksum(replaced))
print("find", string.find(text, "lazy", 1, true), string.find(text, "j%a+"))
print("format", string.format("%5.2f|%-6s|%x|%q", math.pi, "ab", 48879, "a\"b"))
print("upper", string.upper(string.sub(text, 1, 19)), string.len(text))

-- Closures and upvalues.
local function counter()
  local n = 0
  return function(k) n = n + k; return n end
end
local c1, c2 = counter(), counter()
for i = 1, 100 do c1(i); c2(2 * i) end
print("closures", c1(0), c2(0))

-- Metatables: arithmetic, indexing, calls, tostring.
local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
Vec.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
function Vec:len2() return self.x * self.x + self.y * self.y end
local acc = Vec.new(0, 0)
for i = 1, 100 do acc = acc + Vec.new(i, -i) end
print("vector", tostring(acc), acc:len2())
local defaults = setmetatable({}, {__index = function(_, k) return k .. "?" end})
print("index", defaults.alpha, rawget(defaults, "alpha"))

-- Coroutines.
local producer = coroutine.create(function()
  for i = 1, 5 do coroutine.yield(i * i) end
  return "done"
end)
local got = {}
while true do
  local ok, v = coroutine.resume(producer)
  got[#got + 1] = tostring(v)
  if coroutine.status(producer) == "dead" then break end
end
print("coroutine", table.concat(got, " "))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print("wrap", gen(), gen(), gen())

-- Errors: pcall, error values, tracebacks' first line.
local ok, err = pcall(function() error({code = 42}) end)
print("pcall table", ok, type(err), err.code)
ok, err = pcall(function() local x = nil; return x.field end)
print("pcall nil index", ok, (string.gsub(err, "^.-:%d+: ", "")))
ok, err = pcall(error, "plain", 0)
print("pcall plain", ok, err)
print("xpcall", xpcall(function() error("boom", 0) end, function(m) return "handled " .. m end))

-- Numbers: arithmetic, math library, conversions.
local sum = 0
for i = 1, 10000 do sum = sum + math.sqrt(i) * math.sin(i) end
print("math", string.format("%.6f", sum), math.floor(-3.5), math.max(3, 9, 2), math.abs(-7))
print("tonumber", tonumber("0x1F"), tonumber("1e3"), tonumber("  42  "), tonumber("z", 36))
print("fmod", math.fmod(17, 5), 17 % 5, -17 % 5, 2 ^ 10)

-- Recursion and a little interpreter loop.
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
print("fib", fib(22))
local function ackermann(m, k)
  if m == 0 then return k + 1 end
  if k == 0 then return ackermann(m - 1, 1) end
  return ackermann(m - 1, ackermann(m, k - 1))
end
print("ackermann", ackermann(2, 3))

-- Garbage: many short-lived tables, weak tables, a full collection.
local weak = setmetatable({}, {__mode = "k"})
for i = 1, 20000 do
  local k = {i}
  if i % 1000 == 0 then weak[k] = i end
end
collectgarbage()
local live = 0
for _ in pairs(weak) do live = live + 1 end
print("weak", live)
local big = {}
for i = 1, 50000 do big[i] = {i, tostring(i)} end
local total = 0
for i = 1, #big, 7 do total = total + big[i][1] + #big[i][2] end
print("big", #big, total)

-- Loading code from a string.
local chunk = (loadstring or load)("local a, b = ... return a * b + 1")
print("load", chunk(6, 7))
print("select", select("#", 1, nil, 3), select(2, "a", "b", "c"))
print("unpack", (table.unpack or unpack)({1, 2, 3}))
