// Harness shim (hand-written): at::Scalar, which bindings include on its own (cotbuilder/torch_shim.h).
#pragma once
#include "cotbuilder/torch_shim.h"
