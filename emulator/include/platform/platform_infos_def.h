// Host shim (hand-written): fe::PlatFormInfos.
#pragma once
#include "../impl/host/platform.h"
