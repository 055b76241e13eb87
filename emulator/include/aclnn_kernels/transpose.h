// aclnn_kernels/transpose.h: the framework's built-in l0 ops, run on the host CPU (impl/host/opapi_l0.h).
#pragma once
#include "../impl/host/opapi.h"
