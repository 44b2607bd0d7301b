#ifndef PARLEY_CREADLINE_SHIM_H
#define PARLEY_CREADLINE_SHIM_H
// GNU Readline needs stdio declared before its headers.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#endif
