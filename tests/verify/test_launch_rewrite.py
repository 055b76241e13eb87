"""`<<<…>>>` launches in host code become the emulator's COTBUILDER_LAUNCH launch."""

from cotbuilder.verify.launch_rewrite import rewrite_launches


def test_launch_with_stream_becomes_icpu_run_kf_with_block_dim_and_args():
    src = "add_custom<<<numBlocks, 0, stream>>>(xDevice, yDevice, zDevice, totalLength);"
    assert rewrite_launches(src) == (
        "COTBUILDER_LAUNCH(add_custom, numBlocks, xDevice, yDevice, zDevice, totalLength);",
        1,
    )


def test_nested_parentheses_and_templates_survive():
    out, n = rewrite_launches("k<float><<<GetDim(a, b), nullptr, s>>>(f(x, y), (uint8_t*)p);")
    assert n == 1 and out == "COTBUILDER_LAUNCH(k<float>, GetDim(a, b), f(x, y), (uint8_t*)p);"


def test_shifts_and_text_without_launches_are_untouched():
    src = "int a = b << 3; x >>= 1; std::cout << y;"
    assert rewrite_launches(src) == (src, 0)


def test_several_launches_in_one_file():
    out, n = rewrite_launches("a<<<1, 0, s>>>(p);\nb<<<2, 0, s>>>();\n")
    assert n == 2 and "COTBUILDER_LAUNCH(a, 1, p)" in out and "COTBUILDER_LAUNCH(b, 2)" in out


def test_template_kernel_with_commas_uses_the_launch_function_not_the_macro():
    out, n = rewrite_launches("k<count, mask><<<numBlocks, 0, stream>>>(x, out);")
    assert n == 1 and out == "cotbuilder::launch(k<count,mask>, numBlocks, x, out);"
