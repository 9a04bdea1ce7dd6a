-- luacheck settings for the library in lua/ (run by the root's `pnpm lint`, scripts/lint-lua.mjs).
-- Redis runs Lua 5.1 with these globals and no others; a script that reads or writes any other global is
-- a bug (Redis 7 refuses the write at run time, on the path that does it). LIBRARY and OPERATION are the
-- locals of the one line src/scripts.ts puts before the library (see lua/entry.lua).
std = 'lua51'
read_globals = { 'redis', 'KEYS', 'ARGV', 'cjson', 'cmsgpack', 'bit', 'struct', 'LIBRARY', 'OPERATION' }
max_line_length = 160
-- 'not (x < y)' is deliberate where NaN must fall on the refusing side.
ignore = { '581' }
