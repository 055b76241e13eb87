// The host shims' runtime as one object: the out-of-line definition of every CBEMU_HOST_RT function (impl/emu/rt.h) -
// the OpDef registry, PlatformAscendC, the emulated aclnn framework. Archived with cbemu_runtime.cpp in libcbemu.a,
// so a program links it only when it uses the host shims (an op project's host, aclnn and harness objects).
#define COTBUILDER_HOST_RUNTIME_TU
#include "impl/host/aclnn_runtime.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
