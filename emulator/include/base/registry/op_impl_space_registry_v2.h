// Host shim (hand-written): gert::DefaultOpImplSpaceRegistryV2: an op type's registered functions.
#pragma once
#include "../../impl/host/context_builder.h"
