"""Category rules (cotbuilder/parse/data/categories.toml): what the code calls decides where the name says nothing
about the computation (issue 13: categories agree with hand labels of real kernels)."""

from __future__ import annotations

from cotbuilder.parse.category import categorize

MOVE = {"DataCopy": 2, "SetGlobalBuffer": 2, "GlobalTensor": 2, "PipeBarrier": 1}


def test_results_accumulated_across_cores_by_atomic_add_are_a_reduction():
    apis = MOVE | {"SetAtomicAdd": 1, "DisableDmaAtomic": 1, "GetBlockIdx": 1}
    assert categorize(["movement_with_atomics", "movement_with_atomics_custom"], apis) == "reduction"
    assert categorize(["block_sync_demo"], MOVE | {"SetAtomicMax": 1}) == "reduction"


def test_atomic_add_in_a_name_is_the_accumulation_mechanism_not_an_elementwise_add():
    # nothing else in the name or the calls says what is computed
    assert categorize(["set_atomic_add_multi_core_custom"], {"TPipe": 1, "PipeBarrier": 1}) == "other"
    # a real add next to it is still an add
    assert categorize(["add_with_set_atomic_add"], {"TPipe": 1}) == "elementwise"


def test_a_plain_copy_between_buffers_is_not_elementwise():
    assert categorize(["copy_ub2ub", "copy_custom"], MOVE | {"Copy": 1}) == "other"


def test_scalar_in_a_name_is_not_a_broadcast():
    assert categorize(["scalar_atomic_ops_custom"], MOVE | {"AtomicCas": 1}) == "other"


def test_softmax_gradient_kernels_are_softmax_by_name_and_by_api():
    assert categorize(["softmaxgrad_custom"], {}) == "softmax"
    assert categorize(["kernel_op9"], MOVE | {"SoftmaxGradFront": 1}) == "softmax"
    assert categorize(["kernel_op9"], MOVE | {"SoftmaxFlashV3": 1}) == "softmax"


def test_a_kernel_named_element_wise_stays_elementwise_whatever_vector_api_it_uses():
    assert categorize(["element_wise_arithmetic_kernel"], MOVE | {"LeakyRelu": 1}) == "elementwise"
    # without the name, the activation API decides
    assert categorize(["kernel_op3"], MOVE | {"LeakyRelu": 1}) == "activation"


def test_a_buffer_clearing_duplicate_does_not_make_an_elementwise_math_kernel_a_broadcast():
    calls = MOVE | {"Duplicate": 1, "Acosh": 1, "InitBuffer": 1}
    assert categorize(["kernel_op5"], calls) == "elementwise"
    assert categorize(["kernel_op5"], MOVE | {"Duplicate": 1, "Fmod": 1}) == "elementwise"
    # alone, the fill is what the kernel does
    assert categorize(["kernel_op5"], MOVE | {"Duplicate": 1}) == "broadcast"


def test_the_op_name_decides_before_the_names_of_extra_entries_in_the_same_project():
    names = ["AddCustom", "custom_op", "add_custom", "leaky_relu_custom"]
    assert categorize(names, MOVE | {"Add": 1, "Maxs": 1}) == "elementwise"
    assert categorize(["custom_op", "leaky_relu_custom"], MOVE) == "activation"


def test_elementwise_math_named_after_its_function_is_elementwise_whatever_it_reduces_internally():
    # a gcd kernel finds its loop bound with ReduceMax: still an element-wise op
    assert categorize(["Gcd", "gcd"], MOVE | {"ReduceMax": 1, "And": 2, "Sub": 3}) == "elementwise"
    for name in ("rint", "acosh", "foreach_sinh", "frac_custom"):
        assert categorize([name], MOVE | {"Duplicate": 1}) == "elementwise", name
