"""The device-intrinsic list (apidocs/intrinsics.py): builtins found by elimination in a toolkit tree written here."""

from __future__ import annotations

from cotbuilder.apidocs import intrinsics


def test_a_name_the_implementation_calls_and_nothing_defines_is_an_intrinsic(tmp_path):
    impl = tmp_path / "impl" / "basic_api" / "dav_c220"
    impl.mkdir(parents=True)
    (impl / "kernel_operator_vec_impl.h").write_text(
        "#define PIPE_WAIT(e) wait_flag(e)\n"
        "__aicore__ inline void HelperSum(__ubuf__ float *dst, uint8_t repeat) {\n"
        "    vcadd(dst, dst, repeat, 1, 1, 8, false);  // an ISA call\n"
        "    int32_t n = static_cast<int32_t>(repeat);\n"
        "    if (n > 0) { set_flag(PIPE_V, PIPE_S, 0); }\n"
        "    local_helper(n);\n"
        "}\n"
        "/* vgone(dst) in a comment is not a call */\n"
    )
    common = tmp_path / "include"
    common.mkdir()
    (common / "helpers.h").write_text("inline void local_helper(int n) { (void)n; }\n")
    assert intrinsics.scan(tmp_path) == {"vcadd", "set_flag", "wait_flag"}


def test_the_shipped_list_holds_the_reduce_intrinsics_and_no_keyword():
    names = intrinsics.device_intrinsics()
    assert {"vcadd", "get_acc_val", "copy_gm_to_ubuf", "set_vector_mask"} <= names
    assert not names & {"if", "sizeof", "static_cast", "int32_t", "memcpy"}
