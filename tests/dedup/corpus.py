"""Code the dedup lexer tests share: tricky snippets, generated kernels and the project's own examples."""

from __future__ import annotations

import random
from pathlib import Path

from cotbuilder.dedup import synthetic

REPO = Path(__file__).resolve().parents[2]

TRICKY = [
    "",
    "   \n\t ",
    "// only a comment",
    "x",
    "a/**/b",
    'const char* s = "// not a comment"; int x = 1; // a comment',
    "int y = '\\''; /* unterminated block comment to the end",
    "#include <kernel_operator.h>\n#define TILE 256\n#  if defined(X)\n#endif\n# a python comment\nx = 1  # trailing\n",
    "#ifdef A\n#pragma once\n#undef B\n#elif C\n#else\n",
    "auto v = 1'000'000ULL + 0x1F'FFu + .5e-3f + 3.f; p->q->*r; a <=> b; x <<= 2; y >>= 1; a ## b; f(...);",
    "a[i] = b->c >> 2;",
    "std::vector<int> v; if (a && b || !c) { v[i]++; --j; }",
    'x = "esc \\" quote" + "line\\\nnext";',
    '/* 注释 */ int 变量 = 1; // 中文注释\nfloat y = 2.0f; s = "中文字符串";',
    "def ref(x):\n    # numpy reference\n    return x * 2  # doubled\n",
    'u8"utf8" L\'w\' R"(raw)"',
    "a /* nested /* still */ b */ c",
    "'unterminated char\nnext line",
]


def codes() -> list[str]:
    rng = random.Random(5)
    codes = list(TRICKY)
    for _ in range(40):
        base = synthetic.base_kernel(rng)
        codes += [base] + [synthetic.variant(base, kind, rng) for kind in synthetic.VARIANTS]
    for path in sorted((REPO / "examples").rglob("*")):
        if path.suffix in (".cpp", ".h", ".py", ".txt") and path.is_file():
            codes.append(path.read_text(encoding="utf-8", errors="replace"))
    return codes
