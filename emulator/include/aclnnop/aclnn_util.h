// aclnnop/aclnn_util.h: the export marker of the aclnn API declarations.
#pragma once
#include "../aclnn/aclnn_base.h"
#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif
