#ifndef PARLEY_CSAMPLERATE_SHIM_H
#define PARLEY_CSAMPLERATE_SHIM_H
// libsamplerate: sample-rate conversion for audio read from files.
#include <samplerate.h>
#endif
