// Host shim (hand-written): gert::OpInferShapeContextBuilder (an ops-* repo's infershape UT helpers build on it).
#pragma once
#include "impl/host/infer_shape_builder.h"
