#!/bin/bash
# Generate data, build and run the aclnn example, compare (on a machine with CANN and the op package installed).
set -e
rm -rf input output build
python3 gen_data.py
cmake -B build && cmake --build build -j
(cd build && ./execute_hard_swish_op)
python3 verify_result.py output/output_y.bin output/golden.bin
