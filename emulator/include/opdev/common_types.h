// opdev/common_types.h of the op-api framework: the emulated framework is one API (impl/host/opapi.h).
#pragma once
#include "../impl/host/opapi.h"
