// Where the emulator's runtime is compiled: the code that depends on no kernel type. Two parts:
//   CBEMU_RT       the kernel side - diagnostics, the pipe-hazard model, the scheduler, the queue protocol and TPipe,
//                  GM allocations (impl/emu/*, impl/basic_api/pipe.h);
//   CBEMU_HOST_RT  the host shims' side - the OpDef registry, PlatformAscendC, the emulated aclnn framework.
// Their functions are declared `CBEMU_RT` / `CBEMU_HOST_RT` and defined in a `#if CBEMU_RT_BODY` /
// `#if CBEMU_HOST_RT_BODY` section at the end of their header.
//
//   header-only (the default): every runtime function is `inline` and compiled into each translation unit that
//     includes the headers, as any header library;
//   COTBUILDER_EMU_PREBUILT: a translation unit sees the declarations only and is linked with the runtime library
//     (libcbemu.a: src/cbemu_runtime.cpp compiled with COTBUILDER_EMU_RUNTIME_TU, src/cbhost_runtime.cpp with
//     COTBUILDER_HOST_RUNTIME_TU: the one out-of-line definition of each; a program pulls the host part only when it
//     uses the host shims). cotbuilder's verify builds it once per emulator version + flags, next to the precompiled
//     header: a kernel's compile then generates its own code only.
//
// Every object of one program is compiled in the same mode. The runtime's state (function-local statics) lives in
// small accessors that stay inline in every mode, so it is one object per program whichever mode a caller used.
#pragma once

#if defined(COTBUILDER_EMU_RUNTIME_TU)
#define CBEMU_RT
#define CBEMU_RT_BODY 1
#elif defined(COTBUILDER_EMU_PREBUILT) || defined(COTBUILDER_HOST_RUNTIME_TU)
#define CBEMU_RT
#define CBEMU_RT_BODY 0
#else
#define CBEMU_RT inline
#define CBEMU_RT_BODY 1
#endif

#if defined(COTBUILDER_HOST_RUNTIME_TU)
#define CBEMU_HOST_RT
#define CBEMU_HOST_RT_BODY 1
#elif defined(COTBUILDER_EMU_PREBUILT) || defined(COTBUILDER_EMU_RUNTIME_TU)
#define CBEMU_HOST_RT
#define CBEMU_HOST_RT_BODY 0
#else
#define CBEMU_HOST_RT inline
#define CBEMU_HOST_RT_BODY 1
#endif
