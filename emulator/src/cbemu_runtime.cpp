// The emulator's runtime as one object: the out-of-line definition of every CBEMU_RT function (impl/emu/rt.h).
// cotbuilder's verify compiles it once per emulator version + flags and links it into every kernel it builds with
// COTBUILDER_EMU_PREBUILT; it is built from these headers only, never from a unit's code.
#define COTBUILDER_EMU_RUNTIME_TU
#include "kernel_operator.h"
#include "tikicpulib.h"
