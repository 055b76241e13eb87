// Harness shim (hand-written): the torch-extension surface of benchmark bindings (cotbuilder/torch_shim.h).
#pragma once
#include "cotbuilder/torch_shim.h"
