// Op host code compiled against the toolkit uses `vector`, `map`, `string`, `cout` unqualified: the toolkit's host
// headers bring namespace std into the global scope. The host-only shims (op registry, tiling API) do the same, so
// that code builds unchanged. A kernel translation unit (the device compiler's __CCE_AICORE__ is defined) reaches
// these shims through the op's tiling header: there only the containers and streams come in, never the whole of std,
// whose type traits (false_type, is_same) would make the kernel's unqualified uses of AscendC's own ambiguous
// (cann-ops rms_norm_grad, max_pool3d_grad_with_argmax).
#pragma once
#include "std_headers.h"

#ifndef __CCE_AICORE__
using namespace std;  // NOLINT: reproduces the toolkit host headers' behaviour
#else
using std::cerr;
using std::cout;
using std::endl;
using std::map;
using std::pair;
using std::set;
using std::string;
using std::to_string;
using std::unique_ptr;
using std::unordered_map;
using std::vector;
#endif
