// Host shim (hand-written): gert::OpTilingContextBuilder and ContextHolder (an ops-* repo's UT helpers build on them).
#pragma once
#include "impl/host/context_builder.h"
