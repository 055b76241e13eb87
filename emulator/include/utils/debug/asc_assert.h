// asc_assert.h: the kernel debug header; everything it declares comes with the umbrella header.
#pragma once
#include "../../kernel_operator.h"
