#ifndef PARLEY_CPULSEAUDIO_SHIM_H
#define PARLEY_CPULSEAUDIO_SHIM_H
// The asynchronous PulseAudio client API with its threaded mainloop.
#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>
#endif
