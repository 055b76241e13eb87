// Host-side names op hosts use from the toolkit's headers: OPS_LOG_E_IF_NULL (log a null pointer by name, then run
// the caller's statement), ASCENDC_EXTERN_C (C linkage of an exported tiling function), and platform_ascendc, which
// the tiling template header brings along (this file includes nothing else that declares it).
#include <cstdio>

#include "error/ops_error.h"
#include "tiling/tiling_templates_registry.h"

ASCENDC_EXTERN_C ge::graphStatus CheckInput(const int* shape) {
    OPS_LOG_E_IF_NULL("HostMacros", shape, return ge::GRAPH_FAILED);
    return *shape > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

int main() {
    int dim = 4;
    std::printf("%d %d\n", CheckInput(&dim) == ge::GRAPH_SUCCESS, CheckInput(nullptr) == ge::GRAPH_FAILED);
    std::printf("%d\n", platform_ascendc::CoreMemType::UB != platform_ascendc::CoreMemType::L1);
    return 0;
}
