#!/bin/bash
# Generate data, build and run the example, compare (CANN installed, the op package with its op_api deployed).
set -e
rm -rf input output build
python3 gen_data.py
cmake -B build && cmake --build build -j
(cd build && ./execute_shift_op)
python3 verify_result.py output/output_y.bin output/golden.bin
