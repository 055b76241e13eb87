"""What the own harness reads from a unit's build files: compile definitions and the checker's arguments."""

from __future__ import annotations

from cotbuilder.verify import cmake_defines
from cotbuilder.verify.harness_own import checker_args

CMAKE = """
set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")
if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
    set(NPU_ARCH_ID 2201)
elseif(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
    set(NPU_ARCH_ID 3510)
endif()
add_executable(demo sample.asc)
target_compile_definitions(demo PRIVATE
    SCENARIO=${SCENARIO_NUM}
    NPU_ARCH=${NPU_ARCH_ID}
    USE_FAST_PATH
    UNRESOLVED=${NOT_SET_ANYWHERE}
)
add_definitions(-DCYCLES=3)
"""
README = "cmake -DSCENARIO_NUM=2 ..\npython3 scripts/verify_result.py -scenarioNum=$SCENARIO_NUM output/output.bin\n"


def _unit(files: dict[str, str]) -> dict:
    return {"files": [{"path": p, "role": "other", "text": t} for p, t in files.items()]}


def test_cmake_definitions_resolve_variables_per_soc_and_drop_unresolved_ones():
    defs = cmake_defines.definitions(CMAKE, [README], "ascend910b")
    assert defs == [("SCENARIO", "2"), ("NPU_ARCH", "2201"), ("USE_FAST_PATH", None), ("CYCLES", "3")]


def test_defines_header_sets_the_device_arch_macro_of_the_soc():
    header = cmake_defines.defines_header(_unit({"CMakeLists.txt": CMAKE}), "ascend310p")
    assert "#define __NPU_ARCH__ 2002" in header and "#define USE_FAST_PATH 1" in header


def test_checker_arguments_come_from_the_readme_with_variables_resolved():
    unit = _unit({"CMakeLists.txt": CMAKE, "README.md": README, "scripts/verify_result.py": ""})
    assert checker_args(unit, "scripts/verify_result.py") == ["-scenarioNum=2", "output/output.bin"]


def test_checker_arguments_from_a_run_script():
    unit = _unit({"run.sh": "python3 scripts/verify_result.py ./output/output_z.bin ./output/golden.bin;\n"})
    assert checker_args(unit, "scripts/verify_result.py") == ["output/output_z.bin", "output/golden.bin"]


def test_generator_options_and_shell_variables_from_the_readme():
    from cotbuilder.verify.harness_own import script_args

    readme = "  SCENARIO_NUM=3\n  python3 ../scripts/gen_data.py -scenarioNum=$SCENARIO_NUM   # inputs\n"
    unit = _unit({"README.md": readme})
    assert script_args(unit, "scripts/gen_data.py", need_bin=False) == ["-scenarioNum=3"]
    assert cmake_defines.variables("", [readme], "ascend910b")["SCENARIO_NUM"] == "3"


def test_self_checking_mains_are_judged_by_what_they_print():
    from cotbuilder.verify.harness_own import self_check

    assert self_check("compute done\ntest pass!\n") is True
    assert self_check("CompareResult ./output/golden.bin failed, wrongNum: 12\n") is False
    assert self_check("CompareResult golden.bin success!\ntest pass!\n") is True
    assert self_check("test pass\n[ERROR] result error\n") is False
    assert self_check("done\n") is None


def test_generator_option_values_separated_by_a_space_are_kept():
    from cotbuilder.verify.harness_own import script_args

    readme = "  SCENARIO_NUM=1  # scenario\n  python3 ../scripts/gen_data.py -scenarioNum $SCENARIO_NUM   # inputs\n"
    assert script_args(_unit({"README.md": readme}), "scripts/gen_data.py", need_bin=False) == ["-scenarioNum", "1"]
    unresolved = "python3 ../scripts/gen_data.py --case $UNKNOWN\n"
    assert script_args(_unit({"README.md": unresolved}), "scripts/gen_data.py", need_bin=False) is None


def test_a_readme_file_tree_is_not_mistaken_for_a_command_line():
    from cotbuilder.verify.harness_own import script_args

    readme = ("│   │   ├── gen_data.py             // input and golden generator\n"
              "  python3 ../scripts/gen_data.py   # generate inputs\n")
    assert script_args(_unit({"README.md": readme}), "scripts/gen_data.py", need_bin=False) is None
