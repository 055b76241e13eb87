// Op host code compiled against the toolkit uses `vector`, `map`, `string`, `cout` unqualified: the toolkit's host
// headers bring namespace std into the global scope. The host-only shims (op registry, tiling API) do the same, so
// that code builds unchanged; kernel-side headers never include this.
#pragma once
#include "std_headers.h"

using namespace std;  // NOLINT: reproduces the toolkit host headers' behaviour
