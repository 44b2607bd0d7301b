#ifndef PARLEY_CFFTW_SHIM_H
#define PARLEY_CFFTW_SHIM_H
// FFTW 3, double precision: the Fourier transform of Whisper's log-mel features.
#include <fftw3.h>
#endif
