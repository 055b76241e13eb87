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


def test_the_toolkits_ascendc_compile_definitions_helper_defines_too():
    cmake = (
        'set(SCENARIO_NUM 1 CACHE STRING "1: one path; 2: the other")\n'
        "ascendc_compile_definitions(demo PRIVATE\n    -DWITH_COMM=true\n    -DSCENARIO_NUM=${SCENARIO_NUM}\n    BARE\n)\n"
    )
    defs = cmake_defines.definitions(cmake, [], "ascend910b")
    assert defs == [("WITH_COMM", "true"), ("SCENARIO_NUM", "1"), ("BARE", None)]


def test_a_definition_from_a_string_regex_match_of_the_arch_gets_the_arch_number():
    cmake = (
        'set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")\n'
        'string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")\n'
        "add_definitions(-DASC_ARCHITECTURES=${ARCH_NUM})\n"
        'string(REGEX MATCH "x([0-9]+)" NONE "${CMAKE_ASC_ARCHITECTURES}")\n'
        "add_definitions(-DNO_MATCH=${NONE}x)\n"
    )
    assert cmake_defines.definitions(cmake, [], "ascend910b") == [("ASC_ARCHITECTURES", "2201"), ("NO_MATCH", "x")]


def test_defines_header_sets_the_device_arch_macro_of_the_soc_when_the_sample_names_no_arch():
    header = cmake_defines.defines_header(_unit({"CMakeLists.txt": CMAKE.replace("dav-2201", "")}), "ascend310p")
    assert "#define __NPU_ARCH__ 2002" in header and "#define USE_FAST_PATH 1" in header


def test_the_device_arch_macro_follows_the_samples_own_arch():
    only_2201 = _unit({"CMakeLists.txt": CMAKE})
    assert "#define __NPU_ARCH__ 2201" in cmake_defines.defines_header(only_2201, "ascend310p")
    flag = _unit({"CMakeLists.txt": "target_compile_options(demo PRIVATE --npu-arch=dav-3510)\n"})
    assert "#define __NPU_ARCH__ 3510" in cmake_defines.defines_header(flag, "ascend910b")
    both = _unit(
        {
            "CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "")\n',
            "README.md": "cmake -DCMAKE_ASC_ARCHITECTURES=dav-2201 ..\n",
        }
    )
    assert cmake_defines.unit_arch(both, "ascend910b") == "dav-2201"  # the SoC's arch when the sample supports it
    assert cmake_defines.unit_arch(both, "ascend310p") == "dav-3510"  # else the sample's default


def test_option_guarded_definitions_follow_the_option_default():
    cmake = """
option(USE_SILU_MODE "Enable Silu mode (default: OFF)" OFF)
option(FAST "fast" ON)  # a comment (with parentheses)
if(USE_SILU_MODE)
    target_compile_definitions(demo PRIVATE USE_SILU_MODE)
else()
    target_compile_definitions(demo PRIVATE USE_SWISH)
endif()
if(FAST AND NOT USE_SILU_MODE)
    add_compile_definitions(FAST_PATH=1)
endif()
if(EXISTS "${SOME_DIR}/x")
    add_definitions(-DUNKNOWN_CONDITION_KEPT)
endif()
"""
    assert cmake_defines.definitions(cmake, [], "ascend910b") == [
        ("USE_SWISH", None),
        ("FAST_PATH", "1"),
        ("UNKNOWN_CONDITION_KEPT", None),
    ]


def test_cmake_conditions_on_scenarios_and_arches():
    var = {"SCENARIO_NUM": "3", "CMAKE_ASC_ARCHITECTURES": "dav-2201"}
    lists = {"VALID_SCENARIOS": ["1", "2", "3"]}
    assert cmake_defines.condition('NOT SCENARIO_NUM MATCHES "^([1-9]|1[0-4])$"', var) is False
    assert cmake_defines.condition('SCENARIO_NUM EQUAL 3 AND CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201"', var)
    assert cmake_defines.condition("NOT SCENARIO_NUM IN_LIST VALID_SCENARIOS", var, lists) is False
    assert cmake_defines.condition("SCENARIO_NUM LESS 1 OR SCENARIO_NUM GREATER 14", var) is False
    assert cmake_defines.condition('EXISTS "${X}/y"', var) is None


def test_checker_arguments_come_from_the_readme_with_variables_resolved():
    unit = _unit({"CMakeLists.txt": CMAKE, "README.md": README, "scripts/verify_result.py": ""})
    assert checker_args(unit, "scripts/verify_result.py") == ["-scenarioNum=2", "output/output.bin"]


def test_checker_arguments_from_a_run_script():
    unit = _unit({"run.sh": "python3 scripts/verify_result.py ./output/output_z.bin ./output/golden.bin;\n"})
    assert checker_args(unit, "scripts/verify_result.py") == ["output/output_z.bin", "output/golden.bin"]


def test_checker_values_after_the_files_are_kept_and_prose_after_them_is_not():
    readme = "python3 ../scripts/verify_result.py output/output.bin ./output/golden.bin $SCENARIO_NUM # 验证输出结果\n"
    cmake = 'set(SCENARIO_NUM "3" CACHE STRING "scene")\n'
    unit = _unit({"CMakeLists.txt": cmake, "README.md": readme, "scripts/verify_result.py": ""})
    assert checker_args(unit, "scripts/verify_result.py") == ["output/output.bin", "output/golden.bin", "3"]
    prose = _unit({"README.md": "python3 scripts/verify_result.py out.bin golden.bin 验证结果\n"})
    assert checker_args(prose, "scripts/verify_result.py") == ["out.bin", "golden.bin"]


def test_generator_options_and_shell_variables_from_the_readme():
    from cotbuilder.verify.harness_own import script_args

    readme = "  SCENARIO_NUM=3\n  python3 ../scripts/gen_data.py -scenarioNum=$SCENARIO_NUM   # inputs\n"
    unit = _unit({"README.md": readme})
    assert script_args(unit, "scripts/gen_data.py", need_bin=False) == ["-scenarioNum=3"]
    assert cmake_defines.variables("", [readme], "ascend910b")["SCENARIO_NUM"] == "3"


def test_what_a_self_checking_main_prints_is_read_as_evidence():
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

    readme = (
        "│   │   ├── gen_data.py             // input and golden generator\n"
        "  python3 ../scripts/gen_data.py   # generate inputs\n"
    )
    assert script_args(_unit({"README.md": readme}), "scripts/gen_data.py", need_bin=False) is None


def test_generator_arguments_of_a_non_default_configuration_are_not_used():
    from cotbuilder.verify.harness_own import script_args

    cmake = 'option(USE_SILU_MODE "silu" OFF)\n'
    readme = (
        "```bash\ncmake -DCMAKE_ASC_ARCHITECTURES=dav-2201 ..; make -j;\npython3 ../scripts/gen_data.py\n```\n"
        "```bash\ncmake -DUSE_SILU_MODE=ON ..; make -j;\npython3 ../scripts/gen_data.py --silu-mode\n```\n"
    )
    unit = _unit({"CMakeLists.txt": cmake, "README.md": readme})
    assert script_args(unit, "scripts/gen_data.py", need_bin=False) is None  # the default block has no arguments
    on = _unit({"CMakeLists.txt": cmake.replace("OFF", "ON"), "README.md": readme})
    assert script_args(on, "scripts/gen_data.py", need_bin=False) == ["--silu-mode"]


def test_the_executable_gets_the_arguments_its_readme_runs_it_with():
    from cotbuilder.verify.harness_own import binary_args

    cmake = "add_executable(demo sample.asc)\n"
    readme = (
        "```bash\nTESTCASE=1   # 0 or 1\ncmake ..;make -j;\npython3 ../scripts/gen_data.py --testcase $TESTCASE\n"
        "./demo $TESTCASE              # run\n```\n"
    )
    assert binary_args(_unit({"CMakeLists.txt": cmake, "README.md": readme})) == ["1"]
    bare = "```bash\n./demo   # run it\n```\n"
    assert binary_args(_unit({"CMakeLists.txt": cmake, "README.md": bare})) == []
    assert binary_args(_unit({"README.md": readme})) == []  # no CMake target: nothing to match


def test_a_second_cache_set_of_the_arch_is_not_an_offered_arch():
    cmake = 'set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "")\nset(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")\n'
    assert cmake_defines.unit_arch(_unit({"CMakeLists.txt": cmake}), "ascend910b") == "dav-3510"


def test_an_arch_offered_only_in_the_readme_table_or_the_cache_help_text_counts():
    cmake = 'set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "NPU architecture: dav-3510")\n'
    table = "| `CMAKE_ASC_ARCHITECTURES` | `dav-3510` (default), `dav-2201` | NPU arch |\n"
    assert cmake_defines.unit_arch(_unit({"CMakeLists.txt": cmake, "README.md": table}), "ascend910b") == "dav-2201"
    helped = cmake.replace('dav-3510")\n', 'dav-2201, dav-3510")\n')
    assert cmake_defines.unit_arch(_unit({"CMakeLists.txt": helped}), "ascend910b") == "dav-2201"
    assert cmake_defines.unit_arch(_unit({"CMakeLists.txt": cmake}), "ascend910b") == "dav-3510"


def test_a_cmake_default_the_file_itself_refuses_is_replaced_by_the_documented_value():
    cmake = (
        'set(SCENARIO_NUM 0 CACHE STRING "Test scenario number (1-14)")\n'
        "if(SCENARIO_NUM LESS 1 OR SCENARIO_NUM GREATER 14)\n"
        '    message(FATAL_ERROR "SCENARIO_NUM must be between 1 and 14")\nendif()\n'
        "target_compile_definitions(demo PRIVATE SCENARIO_NUM=${SCENARIO_NUM})\n"
    )
    readme = "export SCENARIO_NUM=3   # 1-14\ncmake .. -DSCENARIO_NUM=${SCENARIO_NUM}\n"
    assert cmake_defines.definitions(cmake, [readme], "ascend910b") == [("SCENARIO_NUM", "3")]
    assert cmake_defines.configuration_variables(_unit({"CMakeLists.txt": cmake})) == ("SCENARIO_NUM",)


def test_the_run_mode_switch_takes_the_cpu_branch_the_emulator_runs():
    cmake = """set(CMAKE_ASC_RUN_MODE "npu" CACHE STRING "Run mode: npu, cpu, sim")
if (CMAKE_ASC_RUN_MODE STREQUAL "npu")
    target_compile_definitions(demo PRIVATE CYCLENUMS=10000)
else()
    target_compile_definitions(demo PRIVATE CYCLENUMS=1)
endif()
"""
    assert cmake_defines.definitions(cmake, [], "ascend910b") == [("CYCLENUMS", "1")]
