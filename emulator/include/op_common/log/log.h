// Host shim (hand-written): op host logging and check macros.
#pragma once
#include "../../impl/host/log.h"
#include "../../impl/host/opbase.h"  // the ops-base log header brings Ops::Base (ToString ...) along
