// The one definition of each emulator template instance in cbemu_api_instances.h (generated: its first lines and
// emulator/tools/api_instances.py say what is listed and why), archived in libcbemu.a by cotbuilder's verify next to
// the runtime; built from the emulator's headers only. A translation unit of its own, so the library's objects
// compile in parallel.
#include "kernel_operator.h"
#include "tikicpulib.h"

#define CBEMU_INSTANCE(...) template class __VA_ARGS__;
#define CBEMU_FN_INSTANCE(...) template __VA_ARGS__;
#include "cbemu_api_instances.h"
#undef CBEMU_FN_INSTANCE
#undef CBEMU_INSTANCE
