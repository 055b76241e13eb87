#!/bin/bash
# Builds and runs the batch_matmul sample, then checks its output.
#   bash run.sh -r cpu -v Ascend910B1     (RUN_MODE: cpu | npu)
set -e
RUN_MODE=cpu
SOC_VERSION=Ascend910B1
while getopts "r:v:" opt; do
    case $opt in
        r) RUN_MODE=$OPTARG ;;
        v) SOC_VERSION=$OPTARG ;;
        *) echo "usage: $0 [-r cpu|npu] [-v SOC_VERSION]"; exit 2 ;;
    esac
done
case $RUN_MODE in
    cpu|npu) ;;
    *) echo "RUN_MODE must be cpu or npu, got $RUN_MODE"; exit 2 ;;
esac

cd "$(dirname "$0")"
if [ -n "$ASCEND_HOME_PATH" ] && [ -f "$ASCEND_HOME_PATH/bin/setenv.bash" ]; then
    source "$ASCEND_HOME_PATH/bin/setenv.bash"
elif [ -f /usr/local/Ascend/ascend-toolkit/set_env.sh ]; then
    source /usr/local/Ascend/ascend-toolkit/set_env.sh
fi

rm -rf build out input output
mkdir -p build
cmake -S . -B build -DRUN_MODE="$RUN_MODE" -DSOC_VERSION="$SOC_VERSION"
cmake --build build -j
cmake --install build

python3 scripts/gen_data.py
./out/batch_matmul_main
python3 scripts/verify_result.py output/output_c.bin output/golden.bin
