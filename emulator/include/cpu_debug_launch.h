// CPU-debug launch header included by newer .asc samples.
#pragma once
#include "kernel_operator.h"
