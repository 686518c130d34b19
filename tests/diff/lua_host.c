// SPDX-License-Identifier: GPL-2.0
/*
 * lua_host SCRIPT: runs a Lua script through Debian's liblua5.4.so.0 (the
 * lua5.4 command links Lua statically), the differential test's Lua
 * workload (tests/diff/workload.lua).
 */
#include <stdio.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

int main(int argc, char **argv)
{
	lua_State *L;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: lua_host SCRIPT\n");
		return 2;
	}
	L = luaL_newstate();
	if (!L)
		return 1;
	luaL_openlibs(L);
	err = luaL_dofile(L, argv[1]);
	if (err)
		fprintf(stderr, "lua_host: %s\n", lua_tostring(L, -1));
	lua_close(L);
	return err ? 1 : 0;
}
