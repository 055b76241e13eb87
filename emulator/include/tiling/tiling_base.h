// Host shim (hand-written): TilingBaseClass (the tiling template framework).
#pragma once
#include "../impl/host/op_impl.h"
#include "../impl/host/tiling_base.h"
// The template's GetPlatformInfo step reads PlatformAscendC, and op hosts that include only this header use it
// (an NPUKernelBench answer that ran on chips does): the toolkit's header brings it along.
#include "platform/platform_ascendc.h"
// A project's own tiling_base.h (cann-ops' src/common/inc) reaches the device log's level check and the error
// reports through its log headers (base/alog_pub.h, base/err_msg.h); op hosts use them after including this one.
#include "../base/alog_pub.h"
#include "../base/err_msg.h"
