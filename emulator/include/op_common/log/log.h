// Host shim (hand-written): op host logging and check macros.
#pragma once
#include "../../impl/host/log.h"
