// Where the emulator's runtime is compiled: the code that depends on no kernel type (diagnostics, the pipe-hazard
// model, the scheduler, the queue protocol, GM allocations). Its functions are declared `CBEMU_RT` and defined in a
// `#if CBEMU_RT_BODY` section at the end of their header.
//
//   header-only (the default): every runtime function is `inline` and compiled into each translation unit that
//     includes the headers, as any header library;
//   COTBUILDER_EMU_PREBUILT: a translation unit sees the declarations only and is linked with the runtime object
//     (src/cbemu_runtime.cpp, compiled with COTBUILDER_EMU_RUNTIME_TU: the one out-of-line definition of each).
//     cotbuilder's verify builds that object once per emulator version + flags, next to the precompiled header: a
//     kernel's compile then generates its own code only.
//
// Every object of one program is compiled in the same mode. The runtime's state (function-local statics) lives in
// small accessors that stay inline in every mode, so it is one object per program whichever mode a caller used.
#pragma once

#if defined(COTBUILDER_EMU_RUNTIME_TU)
#define CBEMU_RT
#define CBEMU_RT_BODY 1
#elif defined(COTBUILDER_EMU_PREBUILT)
#define CBEMU_RT
#define CBEMU_RT_BODY 0
#else
#define CBEMU_RT inline
#define CBEMU_RT_BODY 1
#endif
