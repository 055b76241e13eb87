"""Licence detection (all six licences, by file and header) and secret detection/redaction, on texts written here."""

from __future__ import annotations

import pytest

from cotbuilder.crawl import licenses, secrets
from cotbuilder.crawl.licenses import LicenseResolver

# Key phrases only (our own wording around them), never whole licence texts.
LICENSE_TEXTS = {
    "Apache-2.0": "Our project\n\n   Apache License\n   Version 2.0, January 2004\n   terms follow...",
    "MIT": "MIT style\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this...",
    "BSD-3-Clause": (
        "Redistribution and use in source and binary forms, with or without modification...\n"
        "3. Neither the name of the holder nor the names of contributors may be used..."
    ),
    "BSD-2-Clause": (
        "Redistribution and use in source and binary forms, with or without modification...\n"
        "2. Redistributions in binary form must reproduce the above notice..."
    ),
    "LicenseRef-CANN-Open-Software-License-1.0": "CANN Open Software License Agreement Version 1.0\n\nThis...",
    "LicenseRef-CANN-Open-Software-License-2.0": "CANN Open Software License Agreement\n Version 2.0\n\nThis...",
}


@pytest.mark.parametrize("spdx", sorted(LICENSE_TEXTS))
def test_license_file_text_is_recognised(spdx):
    assert licenses.match_text(LICENSE_TEXTS[spdx]) == spdx


@pytest.mark.parametrize("spdx", sorted(LICENSE_TEXTS))
def test_license_header_in_a_comment_block_is_recognised(spdx):
    header = "/**\n" + "".join(f" * {line}\n" for line in LICENSE_TEXTS[spdx].splitlines()) + " */\nint x;\n"
    assert licenses.from_header(header) == spdx


def test_spdx_identifier_line_wins_and_is_trimmed():
    assert licenses.from_header("// SPDX-License-Identifier: MIT OR Apache-2.0 */\nint x;") == "MIT OR Apache-2.0"
    assert licenses.from_header("# SPDX-License-Identifier: BSD-3-Clause\nimport os\n") == "BSD-3-Clause"


def test_unknown_text_is_not_a_licence():
    assert licenses.match_text("All rights reserved. Do not copy.") is None


def test_resolver_prefers_header_then_nearest_license_file_then_manifest():
    tree = {"LICENSE": LICENSE_TEXTS["Apache-2.0"], "vendored/COPYING": LICENSE_TEXTS["MIT"]}
    resolver = LicenseResolver(tree.get, declared="BSD-2-Clause")
    assert resolver.resolve("a/b.cpp", "// SPDX-License-Identifier: BSD-3-Clause\n") == (
        "BSD-3-Clause",
        "header:a/b.cpp",
    )
    assert resolver.resolve("vendored/deep/x.h", "int x;") == ("MIT", "license-file:vendored/COPYING")
    assert resolver.resolve("a/b.cpp", "int x;") == ("Apache-2.0", "license-file:LICENSE")
    assert LicenseResolver({}.get, declared="BSD-2-Clause").resolve("x.cpp", "") == ("BSD-2-Clause", "manifest")
    assert LicenseResolver({}.get).resolve("x.cpp", "") == ("NOASSERTION", "none")


SECRET_PASSWORD = "Zq8!vR2#mK9pLx4w"
SECRET_AWS = "AKIAZ7QW3ERTY5UIOP2A"
SECRET_HF = "hf_Qw3rTy7UiOp9AsDfGhJkLzXcVbNm12345"


def test_scan_finds_each_kind_and_redacts_every_occurrence():
    text = (
        f'const char* password = "{SECRET_PASSWORD}";\n'
        f"// key {SECRET_AWS}\n"
        f'token_str = "{SECRET_HF}"\n'
        f"again {SECRET_AWS}\n"
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\n"
        "uint32_t mask = 0xDEADBEEF;\n"
    )
    result = secrets.scan(text, "host.cpp")
    types = {f["type"] for f in result.findings}
    assert {"Secret Keyword", "AWS Access Key", "Hugging Face Token", "Private Key"} <= types
    for value in (SECRET_PASSWORD, SECRET_AWS, SECRET_HF, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"):
        assert value not in result.text
    assert "<REDACTED:AWS_Access_Key>" in result.text
    assert "0xDEADBEEF" in result.text  # ordinary constants are left alone
    assert all(set(f) == {"type", "line"} for f in result.findings)


def test_scan_leaves_clean_kernel_code_untouched():
    code = "__aicore__ inline void Process() { for (int i = 0; i < tileNum; i++) { CopyIn(i); } }\n"
    result = secrets.scan(code, "k.cpp")
    assert not result.found and result.text == code
