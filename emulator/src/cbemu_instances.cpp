// The one definition of each class template instance in cbemu_instances.h (whose comment says why), archived in
// libcbemu.a by cotbuilder's verify next to the runtime; built from the emulator's headers only.
#include "kernel_operator.h"
#include "tikicpulib.h"

#define CBEMU_INSTANCE(...) template class __VA_ARGS__;
#include "cbemu_instances.h"
#undef CBEMU_INSTANCE
