/* Runs the Lua script named by its argument with the standard libraries: the same driver for
   Lua 5.1 to 5.4 (bench/c-libraries.sh builds it with each version's library). */
#include <stdio.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRIPT.lua\n", argv[0]);
    return 2;
  }
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  if (luaL_loadfile(L, argv[1]) != 0 || lua_pcall(L, 0, 0, 0) != 0) {
    printf("error: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_close(L);
  return 0;
}
