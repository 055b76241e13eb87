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


# AWS's documentation example key pair, assembled here so this file itself trips no scanner.
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize(
    "text, filename",
    [
        (f"// credentials for the CI bucket:\n// aws_secret_access_key = {AWS_SECRET}\nint x;\n", "host.cpp"),
        (f"# aws_secret_access_key: {AWS_SECRET}\nimport numpy\n", "gen_data.py"),
        (f"[default]\naws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\n", "credentials.ini"),
        (f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n", "run.sh"),
        ("    /* password = Zq8vR2mK9pLx4wQ7 for the test box */\n", "main.cpp"),
        ("export HF_API_TOKEN=Qw3rTy7UiOp9AsDf1234\n", "upload.sh"),
    ],
)
def test_bare_unquoted_credentials_are_redacted(text, filename):
    result = secrets.scan(text, filename)
    assert result.found
    for value in (AWS_SECRET, "Zq8vR2mK9pLx4wQ7", "Qw3rTy7UiOp9AsDf1234"):
        assert value not in result.text
    assert "<REDACTED:" in result.text


@pytest.mark.parametrize(
    "text, filename, secret",
    [
        ('const char* key = "sk-proj-Abc123Def456" "Ghi789Jkl012Mno345Pqr678";\n', "host.cpp", "Ghi789Jkl012Mno345"),
        (f"KEY = '{AWS_ID[:4]}' + '{AWS_ID[4:]}'\n", "upload.py", AWS_ID[4:]),
        (
            'std::string t = "ghp_abcdefghijklmnop"\n                "qrstuvwxyz0123456789";\n',
            "k.cpp",
            "qrstuvwxyz0123",
        ),
        ("TOKEN = ('hf_Qw3rTy7UiOp9AsDf'\n         'GhJkLzXcVbNm12345')\n", "hub.py", "GhJkLzXcVbNm12345"),
    ],
)
def test_a_key_split_across_string_literals_is_redacted_in_every_piece(text, filename, secret):
    result = secrets.scan(text, filename)
    assert result.found, text
    assert secret not in result.text
    assert result.findings[0]["line"] == 1


def test_a_key_inside_an_escaped_string_is_redacted():
    text = 'const char* cfg = "{\\"aws_secret_access_key\\": \\"' + AWS_SECRET + '\\"}";\n'
    result = secrets.scan(text, "cfg.cpp")
    assert AWS_SECRET not in result.text and result.found


def test_credential_words_next_to_ordinary_code_are_left_alone():
    code = (
        "uint32_t tokenNum = TILE_LENGTH_1024;  // token = 4096x128\n"
        "int tokenOffset = tokenBase + 12;\n"
        '// secret sauce: keep BUFFER_NUM = 2\nprintf("%d" "\\n", x);\nstd::string s = "hello" "world";\n'
        "# password: see the team wiki\nkey = keyList[i]  # api_key = GetApiKeyFromEnv()\n"
    )
    for name in ("k.cpp", "gen.py", "notes.md"):
        result = secrets.scan(code, name)
        assert not result.found, (name, result.findings)
        assert result.text == code


def test_a_secret_in_a_file_or_folder_name_is_found_and_redacted():
    redacted, types = secrets.path_findings(f"keys/{AWS_ID}/add_custom.cpp")
    assert types == ["AWS Access Key"] and AWS_ID not in redacted and redacted.endswith("/add_custom.cpp")
    assert secrets.path_findings("ops/add_custom/op_kernel/add_custom.cpp") == (
        "ops/add_custom/op_kernel/add_custom.cpp",
        [],
    )
