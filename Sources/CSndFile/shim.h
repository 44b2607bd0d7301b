#ifndef PARLEY_CSNDFILE_SHIM_H
#define PARLEY_CSNDFILE_SHIM_H
// libsndfile: reading and writing WAV, FLAC, OGG and raw audio files.
#include <sndfile.h>
#endif
