#ifndef PARLEY_CESPEAKNG_SHIM_H
#define PARLEY_CESPEAKNG_SHIM_H
// eSpeak NG: the espeak_ng_* API plus the legacy speak_lib.h it builds on.
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
#endif
