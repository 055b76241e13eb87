"""g++ errors name the AscendC API the emulator lacks; emulator diagnostics are parsed from stderr."""

import subprocess

from cotbuilder.verify import diagnostics


def test_not_a_member_of_ascendc_is_a_missing_api_when_the_toolkit_has_that_name():
    log = (
        "k.cpp:10:14: error: 'Gelu' is not a member of 'AscendC'\n"
        "k.cpp:11: error: 'HardEvent' is not a member of 'AscendC'\n"  # real, undocumented: still the emulator's gap
        "k.cpp:12: error: 'AddRelux' is not a member of 'AscendC'"  # spelled nowhere in the toolkit: the kernel's bug
    )
    assert diagnostics.missing_apis(log) == ["AscendC::Gelu", "AscendC::HardEvent"]


def test_an_invented_ascendc_api_is_the_kernels_compile_error_not_an_emulator_gap():
    log = (
        "k.cpp:12:5: error: 'FastSoftmaxMagic' is not a member of 'AscendC'\n"
        "k.cpp:13:5: error: 'class AscendC::LocalTensor<half>' has no member named 'GetValuez'\n"
        "k.cpp:14:5: error: 'AscendC::Reducez' has not been declared\n"
        "k.cpp:15:5: error: 'Matmulz' in namespace 'AscendC' does not name a template type"
    )
    assert diagnostics.missing_apis(log) == []
    assert diagnostics.unsupported_gap(log) is None


def test_undeclared_name_counts_only_when_it_is_a_known_ascendc_api():
    log = "k.cpp:3:5: error: 'Duplicate' was not declared in this scope\nk.cpp:4:5: error: 'myHelper' was not declared in this scope"
    assert diagnostics.missing_apis(log) == ["AscendC::Duplicate"]


def test_missing_toolkit_header_is_unsupported_but_a_missing_user_header_is_not():
    log = (
        "k.cpp:2:10: fatal error: lib/matmul_intf.h: No such file or directory\n"
        "m.cpp:2:10: fatal error: my_util.h: No such file or directory"
    )
    assert diagnostics.missing_apis(log) == ["<lib/matmul_intf.h>"]


def test_a_missing_header_only_named_like_the_toolkits_is_not_called_an_emulator_gap():
    """`kernel_common.h` is no toolkit file (a project's own header the crawl did not bring): still not the kernel's
    fault here, but the reason must not say the emulator lacks it; a real toolkit header keeps that reason."""
    own = "k.cpp:2:10: fatal error: kernel_common.h: No such file or directory"
    assert diagnostics.unsupported_gap(own) == (
        "header found neither in the unit nor in the emulator",
        ["<kernel_common.h>"],
    )
    real = "k.cpp:2:10: fatal error: lib/matmul_intf.h: No such file or directory"
    assert diagnostics.unsupported_gap(real) == ("missing in emulator", ["<lib/matmul_intf.h>"])


def test_emulator_diag_lines_are_parsed_deduplicated_and_removed_from_the_log():
    stderr = (
        'hello\nCOTBUILDER_DIAG {"kind":"ub_overflow","severity":"error","message":"InitBuffer over UB",'
        '"file":"k.cpp","line":12}\nCOTBUILDER_DIAG {"kind":"ub_overflow","severity":"error","message":'
        '"InitBuffer over UB","file":"k.cpp","line":12}\nCOTBUILDER_DIAG not json\n'
    )
    diags, rest = diagnostics.parse_emulator_diagnostics(stderr)
    assert diags == [
        {"kind": "ub_overflow", "severity": "error", "message": "InitBuffer over UB", "file": "k.cpp", "line": 12}
    ]
    assert rest.splitlines() == ["hello", "COTBUILDER_DIAG not json"]


def test_curly_quotes_of_a_utf8_locale_are_understood():
    log = "k.cpp:10:14: error: \u2018Gelu\u2019 is not a member of \u2018AscendC\u2019"
    assert diagnostics.missing_apis(log) == ["AscendC::Gelu"]


def test_missing_acl_runtime_names_are_unsupported():
    log = "data_utils.h:130:28: error: 'aclFloat16' does not name a type"
    assert diagnostics.missing_apis(log) == ["acl::aclFloat16"]


def test_no_overload_of_a_documented_api_is_a_gap_qualified_or_not_but_of_an_own_function_is_the_kernels():
    log = (
        "k.cpp:9:9: error: no matching function for call to 'Duplicate(AscendC::LocalTensor<float>&, "
        "AscendC::LocalTensor<float>&, uint32_t&)'\n"  # under `using namespace AscendC`: a 950 overload
        "k.cpp:10:9: error: no matching function for call to 'AscendC::Exp(AscendC::LocalTensor<int>&)'\n"
        "k.cpp:11:9: error: no matching function for call to 'CopyTile(int&)'"  # the kernel's own helper
    )
    assert diagnostics.missing_apis(log) == ["AscendC::Duplicate (this overload)", "AscendC::Exp (this overload)"]


def test_missing_members_qualified_names_and_emulator_refusals_are_unsupported():
    log = (
        "add.asc:247:13: error: 'class AscendC::GlobalTensor<half>' has no member named 'SetL2CacheHint'\n"
        "where.asc:51:18: error: 'AscendC::AscendCUtils' has not been declared\n"
        "pipe.h:291:24: error: static assertion failed: cotbuilder emulator: LocalMemAllocator supports Hardware::UB only\n"
    )
    assert diagnostics.missing_apis(log) == [
        "AscendC::GlobalTensor::SetL2CacheHint",
        "AscendC::AscendCUtils",
        "LocalMemAllocator supports Hardware::UB only",
    ]


def test_an_error_inside_the_emulator_headers_is_labelled_as_such():
    log = "/x/emulator/include/tiling/tiling_api.h:147:65: error: 'tiling' has not been declared"
    assert diagnostics.first_error(log).startswith("emulator header error: tiling/tiling_api.h:147")


def test_unknown_template_in_the_ascendc_namespace_is_a_missing_api():
    log = "k.cpp:3:10: error: 'Matmul' in namespace 'AscendC' does not name a template type"
    assert diagnostics.missing_apis(log) == ["AscendC::Matmul"]


def test_an_undeclared_api_inside_a_template_is_a_missing_api_but_an_own_helper_is_not():
    log = (
        "k.h:199:7: error: there are no arguments to 'ReduceDataBlock' that depend on a template parameter, so a "
        "declaration of 'ReduceDataBlock' must be available [-fpermissive]\n"
        "k.h:200:7: error: there are no arguments to 'myReduce' that depend on a template parameter, so a "
        "declaration of 'myReduce' must be available [-fpermissive]"
    )
    assert diagnostics.missing_apis(log) == ["AscendC::ReduceDataBlock"]


def test_a_kernel_name_made_ambiguous_by_an_emulator_declaration_is_a_named_gap():
    """The kernel's own IsInf class against AscendC::IsInf, which current CANN and the emulator declare: not the
    kernel's bug; the same ambiguity between two of the kernel's own names is."""
    clash = (
        "op_kernel/k.cpp:41:9: error: reference to 'IsInf' is ambiguous\n"
        "   41 |         IsInf<half, 1, 2> op;\n"
        "In file included from op_kernel/k.cpp:22:\n"
        "op_kernel/is_inf.h:31:11: note: candidates are: 'template<class T> class IsInfNS::IsInf'\n"
        "In file included from /x/emulator/include/impl/adv_api/all.h:6,\n"
        "/x/emulator/include/impl/adv_api/math.h:373:6: note:                 'void AscendC::IsInf(...)'\n"
    )
    kind, names = diagnostics.unsupported_gap(clash)
    assert kind == "emulator gap" and names[0].startswith("IsInf declared by the emulator (impl/adv_api/math.h")
    host = (
        "op_host/t.cpp:404:72: error: call of overloaded 'AlignUp<uint32_t>(uint32_t&, const uint32_t&)' is ambiguous\n"
        "/x/emulator/include/tiling/../impl/host/tiling_type.h:22:10: note: candidate: 'T optiling::AlignUp(T, T)'\n"
        "op_host/t.h:133:13: note: candidate: 'decltype (num) optiling::AlignUp(T, T)'\n"
    )
    assert diagnostics.unsupported_gap(host)[1][0].startswith("AlignUp declared by the emulator")
    own = (
        "op_kernel/k.cpp:41:9: error: reference to 'Helper' is ambiguous\n"
        "op_kernel/a.h:3:7: note: candidates are: 'class A::Helper'\n"
        "op_kernel/b.h:5:7: note:                 'class B::Helper'\n"
    )
    assert diagnostics.unsupported_gap(own) is None


def test_a_whole_tensor_operator_expression_is_a_named_gap_but_an_operator_on_the_kernels_own_type_is_not():
    tensors = (
        "op_kernel/a.h:184:23: error: no match for 'operator>=' (operand types are 'AscendC::LocalTensor<float>' "
        "and 'AscendC::LocalTensor<float>')\n"
    )
    kind, names = diagnostics.unsupported_gap(tensors)
    assert kind == "emulator gap" and names[0].startswith("LocalTensor operator expressions")
    own = "op_kernel/a.h:9:5: error: no match for 'operator+' (operand types are 'Vec3' and 'int')\n"
    assert diagnostics.unsupported_gap(own) is None


def test_a_member_specialization_inside_its_class_is_gs_gap_not_the_kernels_error(tmp_path):
    """The clang-based device compiler accepts it (CWG 727); g++ refuses it: the log of a real g++ run."""
    src = tmp_path / "k.cpp"
    src.write_text(
        "struct Kernel {\n"
        "    template <class T> void Run(T) {}\n"
        "    template <> void Run<int>(int) {}\n"
        "};\n"
        "int main() { Kernel().Run(1); }\n"
    )
    log = subprocess.run(
        ["g++", "-std=c++17", "-c", str(src), "-o", str(tmp_path / "k.o")], capture_output=True, text=True
    ).stderr
    kind, names = diagnostics.unsupported_gap(log)
    assert kind == "emulator gap" and names[0].startswith("explicit specialization in class scope"), log


def test_g_core_type_as_a_template_argument_is_the_emulators_one_build_gap(tmp_path):
    """The device compiler builds AIC and AIV separately, so g_coreType is a constant there; here it is known at run
    time only: the log of a real g++ run against the emulator's headers."""
    from cotbuilder.paths import emulator_include_dirs

    src = tmp_path / "k.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "template <int32_t CORE> struct Side { static constexpr int32_t v = CORE; };\n"
        "int main() { return Side<g_coreType>::v; }\n"
    )
    inc = [f"-I{d}" for d in emulator_include_dirs()]
    cmd = ["g++", "-std=c++17", "-fsyntax-only", "-DASCENDC_CPU_DEBUG", "-DCOTBUILDER_EMU_PREBUILT", *inc, str(src)]
    log = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stderr
    kind, names = diagnostics.unsupported_gap(log)
    assert kind == "emulator gap" and names[0].startswith("g_coreType in a constant expression"), log[-2000:]


def test_an_uninitialised_member_in_a_constexpr_constructor_is_gs_gap(tmp_path):
    """clang accepts it before C++20 as an extension (the device compiler); g++ -std=c++17 refuses it."""
    src = tmp_path / "k.cpp"
    src.write_text("struct Coord { int idx[2]; constexpr Coord() { idx[0] = 0; idx[1] = 0; } };\nCoord c;\n")
    cmd = ["g++", "-std=c++17", "-c", str(src), "-o", str(tmp_path / "k.o")]
    log = subprocess.run(cmd, capture_output=True, text=True).stderr
    kind, names = diagnostics.unsupported_gap(log)
    assert kind == "emulator gap" and names[0].startswith("uninitialised member in a constexpr constructor"), log


FUNCTION_ARGUMENT = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
using UnaryOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t);
template <typename T, UnaryOp<T>* op>
struct Runner { void run(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t) { op(d, s, t, 8); } };
template <typename T>
void OwnOp(const LocalTensor<T>& d, const LocalTensor<T>& s) {}
Runner<half, OP<half, false>> r;
"""


def test_an_apis_address_taken_as_the_toolkits_function_type_is_the_emulators_gap_and_the_codes_own_is_its_error(
    tmp_path,
):
    """NPUKernelBench ForeachAcos passes `Acos<half, false>` as a `void (*)(dst, src, count)` template argument; the
    count forms have an address form now (test_function_pointer_ops), the sharedTmpBuffer form does not: its
    trailing source-location parameter leaves g++ no conversion - our gap. The same error on the code's own function
    of the wrong signature stays its compile error. Logs of real g++ runs."""
    from cotbuilder.paths import emulator_include_dirs

    inc = [f"-I{d}" for d in emulator_include_dirs()]
    logs = {}
    for name, op in (("api", "Acos"), ("own", "OwnOp")):
        src = tmp_path / f"{name}.cpp"
        src.write_text(
            FUNCTION_ARGUMENT.replace("OP<half, false>", f"{op}<half, false>" if name == "api" else op + "<half>")
        )
        cmd = ["g++", "-std=c++17", "-fsyntax-only", "-DASCENDC_CPU_DEBUG", *inc, str(src)]
        logs[name] = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stderr
    kind, names = diagnostics.unsupported_gap(logs["api"])
    assert kind == "emulator gap" and names[0].startswith("the address of Acos taken as a plain function type"), logs
    assert "no matches converting function" in logs["own"] and diagnostics.unsupported_gap(logs["own"]) is None


def test_an_older_api_name_the_toolkit_headers_still_declare_is_missing_in_the_emulator_not_the_kernels_error():
    """GetReduceMaxMinCount (接口变更说明.md: the older GetReduceRepeatMaxMinSpr) has no page of its own but the
    toolkit's kernel_operator_vec_reduce_intf.h declares it: NPUKernelBench Icamax's reference answer calls it. An
    invented name stays the kernel's failed_compile."""
    older = "op_kernel/icamax_aiv.h:402:5: error: 'GetReduceMaxMinCount' was not declared in this scope\n"
    assert diagnostics.unsupported_gap(older) == ("missing in emulator", ["AscendC::GetReduceMaxMinCount"])
    invented = "op_kernel/icamax_aiv.h:402:5: error: 'GetReduceMaxMinCountFast' was not declared in this scope\n"
    assert diagnostics.unsupported_gap(invented) is None


def test_a_device_intrinsic_called_under_the_api_is_the_emulators_gap_not_the_kernels_error():
    """NPUKernelBench AddRmsNorm sums with the ISA intrinsic `vcadd` and reads it back with `get_acc_val`: the device
    compiler declares both itself, the emulator models the API above them. g++'s "not declared" is then our gap,
    named (before: failed_compile, a wrong label). A kernel's own undeclared lower-case helper stays its error."""
    log = (
        "op_kernel/reduce_common.h:53:9: error: 'vcadd' was not declared in this scope\n"
        "op_kernel/add_rms_norm.h:98:31: error: there are no arguments to 'get_acc_val' that depend on a template "
        "parameter, so a declaration of 'get_acc_val' must be available\n"
    )
    assert diagnostics.unsupported_gap(log) == (
        "missing in emulator",
        [
            "vcadd (a device intrinsic: the ISA layer under the AscendC API)",
            "get_acc_val (a device intrinsic: the ISA layer under the AscendC API)",
        ],
    )
    own = "op_kernel/reduce_common.h:53:9: error: 'vcadd_rows' was not declared in this scope\n"
    assert diagnostics.unsupported_gap(own) is None


def _gxx_log(tmp_path, body: str) -> str:
    """Real g++'s errors for a kernel compiled against a toolkit that lacks the names it calls (an empty AscendC)."""
    src = tmp_path / "k.cpp"
    src.write_text("namespace AscendC {}\nusing namespace AscendC;\n" + body)
    proc = subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", str(src)],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode != 0
    return proc.stderr


def test_a_name_an_earlier_cann_had_is_the_emulators_gap_named_with_its_current_name(tmp_path):
    """CANN 8 kernels call ArithProgression (now Arange; CANN 8.0's own API page) inside templates, and
    RepeatReduceSum (now ReduceRepeat; the docs' change-log page): a backend without them is `unsupported` naming
    them, never the kernel's failed_compile. The same call misspelled stays the kernel's error (hostile twin)."""
    log = _gxx_log(
        tmp_path,
        "template <typename T> void f(T* t, float* p) { ArithProgression(p, 0.f, 1.f, 8); RepeatReduceSum<T, false>(t); }\n",
    )
    assert "no arguments to 'ArithProgression' that depend on a template parameter" in log
    assert diagnostics.unsupported_gap(log) == (
        "missing in emulator",
        [
            "AscendC::ArithProgression (an older toolkit name; now Arange)",
            "AscendC::RepeatReduceSum (an older toolkit name; now ReduceRepeat)",
        ],
    )
    misspelled = _gxx_log(tmp_path, "template <typename T> void f(float* p) { ArithProgresion(p, 0.f, 1.f, 8); }\n")
    assert diagnostics.unsupported_gap(misspelled) is None
    own = _gxx_log(tmp_path, 'void f() { int b = 0; ASSERT_MSGS(b != 0, "b"); }\n')
    assert diagnostics.unsupported_gap(own) is None


def test_an_older_toolkit_macro_without_a_newer_name_is_named_as_the_toolkits(tmp_path):
    log = _gxx_log(tmp_path, 'void f() { int b = 0; ASSERT_MSG(b != 0, "b is %d", b); }\n')
    assert diagnostics.unsupported_gap(log) == ("missing in emulator", ["AscendC::ASSERT_MSG (an older toolkit name)"])


def test_a_missing_overload_of_an_older_name_is_the_emulators_gap_but_of_the_kernels_own_function_is_not():
    older = "k.cpp:120:26: error: no matching function for call to 'CompareScalar(AscendC::LocalTensor<signed char>&, float)'\n"
    assert diagnostics.unsupported_gap(older) == ("missing in emulator", ["AscendC::CompareScalar (this overload)"])
    own = "k.cpp:120:26: error: no matching function for call to 'CompareScalars(AscendC::LocalTensor<signed char>&)'\n"
    assert diagnostics.unsupported_gap(own) is None


def test_an_undeclared_toolkit_type_the_emulator_lacks_is_its_gap_and_one_it_declares_is_the_kernels_slip():
    """cann-ops bidirection_lstm names LoadData3DParamsV2Pro (a documented struct the emulator does not declare):
    missing in the emulator, not the kernel's failed_compile. DataCopyParams undeclared means the kernel did not bring
    the AscendC namespace (the emulator declares it), and a name the docs never use is the kernel's own."""
    line = "op_kernel/l.cpp:394:3: error: '{}' was not declared in this scope\n"
    assert diagnostics.unsupported_gap(line.format("LoadData3DParamsV2Pro")) == (
        "missing in emulator",
        ["AscendC::LoadData3DParamsV2Pro"],
    )
    assert diagnostics.unsupported_gap(line.format("DataCopyParams")) is None
    assert diagnostics.unsupported_gap(line.format("LoadData3DParamsV9Pro")) is None
