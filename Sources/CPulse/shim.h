// The asynchronous PulseAudio API (pa_threaded_mainloop + pa_context + pa_stream): real cork
// (pause), per-stream volume and server-loss callbacks, which pa_simple lacks.
#include <pulse/pulseaudio.h>
