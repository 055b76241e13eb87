"""CANN backends: detection, version, and the generated build/run commands (pure functions).

An NPU and the CANN toolkit cannot exist on this machine: toolkits are fake folders with the files CANN installs
(set_env.sh, version.cfg / ascend_toolkit_install.info); the real build and run need an Ascend host.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cotbuilder.verify import npu


def test_device_strings_parse_and_bad_ones_are_refused():
    assert npu.parse_device("cpu") == ("cpu", None)
    assert npu.parse_device("npu:3") == ("npu", 3)
    assert npu.parse_device("cann-cpu") == ("cann-cpu", None)
    with pytest.raises(ValueError):
        npu.parse_device("gpu:0")


def test_kernel_launch_cmake_command_carries_run_mode_soc_and_toolkit():
    argv = npu.cmake_configure_argv(Path("/opt/cann"), "ascend910b", "npu", asc_language=False)
    assert argv[:5] == ["cmake", "-S", ".", "-B", "build"]
    assert "-DRUN_MODE=npu" in argv and "-DSOC_VERSION=Ascend910B1" in argv
    assert "-DASCEND_CANN_PACKAGE_PATH=/opt/cann" in argv
    cpu = npu.cmake_configure_argv(Path("/opt/cann"), "ascend310p", "cpu", asc_language=False)
    assert "-DRUN_MODE=cpu" in cpu and "-DSOC_VERSION=Ascend310P1" in cpu


def test_asc_language_samples_use_the_asc_run_mode_and_architecture():
    argv = npu.cmake_configure_argv(Path("/opt/cann"), "ascend910b", "cpu", asc_language=True)
    assert "-DCMAKE_ASC_RUN_MODE=cpu" in argv and "-DCMAKE_ASC_ARCHITECTURES=dav-2201" in argv
    assert not any(a.startswith("-DRUN_MODE") for a in argv)


def test_op_project_msopgen_build_and_install_commands():
    assert npu.msopgen_argv("add_custom.json", "ascend910b", "gen") == [
        "msopgen",
        "gen",
        "-i",
        "add_custom.json",
        "-c",
        "ai_core-Ascend910B1",
        "-lan",
        "cpp",
        "-out",
        "gen",
    ]
    assert npu.op_build_argv("gen") == ["bash", "gen/build.sh"]
    assert npu.op_install_argv("gen/build_out/custom_opp_ubuntu_x86_64.run", "/tmp/opp") == [
        "gen/build_out/custom_opp_ubuntu_x86_64.run",
        "--install-path=/tmp/opp",
    ]
    assert npu.cmake_build_argv("build", 4) == ["cmake", "--build", "build", "-j", "4"]


def test_device_n_is_made_visible_as_the_units_device_zero():
    env = npu.run_env(npu.CannInfo(Path("/opt/cann"), "8.0.RC1"), 5)
    assert env["ASCEND_RT_VISIBLE_DEVICES"] == "5" and env["ASCEND_HOME_PATH"] == "/opt/cann"


def test_cann_is_found_from_ascend_home_path_with_its_version(tmp_path):
    tk = tmp_path / "latest"
    (tk / "x86_64-linux").mkdir(parents=True)
    (tk / "set_env.sh").write_text("export ASCEND_HOME_PATH=...\n")
    (tk / "x86_64-linux" / "ascend_toolkit_install.info").write_text(
        "package_name=Ascend-cann-toolkit\nversion=8.0.RC3\n"
    )
    info = npu.detect_cann({"ASCEND_HOME_PATH": str(tk), "COTBUILDER_ASCEND_DEFAULT": str(tmp_path / "none")})
    assert info.toolkit == tk and info.version == "8.0.RC3"


def test_version_cfg_is_read_too(tmp_path):
    (tmp_path / "version.cfg").write_text("# comment\nruntime_running_version=[7.0.0.5.242:7.0.RC1]\n")
    assert npu.cann_version(tmp_path) == "7.0.RC1"


def test_without_cann_one_line_names_what_is_missing(tmp_path):
    with pytest.raises(npu.CannMissing, match="ASCEND_HOME_PATH"):
        npu.detect_cann({"COTBUILDER_ASCEND_DEFAULT": str(tmp_path / "none")})


def test_missing_npu_device_is_named(tmp_path):
    with pytest.raises(npu.CannMissing, match="davinci2"):
        npu.check_device(2, {"COTBUILDER_DEV_ROOT": str(tmp_path)})


def test_executable_name_comes_from_cmakelists():
    assert npu.executable_name("project(x)\nadd_executable(add_fp16_main main.cpp)\n") == "add_fp16_main"


def test_verify_without_cann_exits_2_with_one_line_and_stores_nothing(cli, workspace, tmp_path):
    env = {"ASCEND_HOME_PATH": "", "ASCEND_TOOLKIT_HOME": "", "COTBUILDER_ASCEND_DEFAULT": str(tmp_path / "none")}
    for device in ("npu:0", "cann-cpu"):
        done = cli("verify", "--device", device, workspace=workspace, env=env)
        assert done.returncode == 2, done.stderr
        lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
        assert len(lines) == 1 and "CANN toolkit not found" in lines[0]
    assert not workspace.exists()
