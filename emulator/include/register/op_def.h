// Host shim (hand-written): OpDef, OpParamDef, OpAttrDef, OpAICoreDef, OpAICoreConfig.
#pragma once
#include "../impl/host/op_def.h"
