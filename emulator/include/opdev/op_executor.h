// opdev/op_executor.h of the op-api framework: the emulated framework is one API (impl/host/opapi.h).
#pragma once
#include "../impl/host/opapi.h"
