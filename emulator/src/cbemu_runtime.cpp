// The emulator's runtime as one object: the out-of-line definition of every CBEMU_RT function (impl/emu/rt.h).
// cotbuilder's verify compiles it (and cbhost_runtime.cpp) once per emulator version + flags into libcbemu.a and
// links that into every program it builds with COTBUILDER_EMU_PREBUILT; built from these headers only, never from a
// unit's code.
#define COTBUILDER_EMU_RUNTIME_TU
#include "kernel_operator.h"
#include "tikicpulib.h"
