#ifndef PARLEY_CPOCKETSPHINX_SHIM_H
#define PARLEY_CPOCKETSPHINX_SHIM_H
// PocketSphinx 5prealpha and the sphinxbase headers it needs. The include
// directories come from pkg-config (pocketsphinx_export.h, cmdln_macro.h).
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fe.h>
#endif
