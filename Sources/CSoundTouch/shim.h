// SoundTouch's own C interface (libSoundTouchDll, shipped by Debian's libsoundtouch-dev):
// time-stretching with the pitch kept, 16-bit samples in and out.
#include <SoundTouchDLL.h>
