"""The compiled lexer (lexer.py) and the batch ids dedup signs with (tokens.id_batch): the tokens of the one-document
lexer, and the ids, counts and exact hashes of the polars path they replace, bit for bit."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from cotbuilder.dedup import clusters, lexer, minhash, tokens

from . import corpus

# Pieces a fuzzer strings together: every construct the lexer has a rule for, and the places two rules meet.
_PIECES = [*"abex0129_fuLXE", " ", "\t", "\n", "\r\n", "\\\n", '"', "'", "\\", "/", "*", "#", ".", "-", ">", "<", "="]
_PIECES += [*"+&|:!%^", "include", "define", "if", "ifdef", "pragma", "//", "/*", "*/", "0x", "0X1fUL", "1.5e-3f"]
_PIECES += [".5", "1e+", "...", "->*", "<=>", "<<=", "##", "::"]


def _fuzz(n: int, seed: int, extra: tuple[str, ...] = ()) -> list[str]:
    rng = random.Random(seed)
    pieces = _PIECES + list(extra)
    return ["".join(rng.choice(pieces) for _ in range(rng.randrange(0, 70))) for _ in range(n)]


def _lexed_tokens(codes: list[str], scratch: lexer.Scratch | None = None) -> list[list[str] | None]:
    """Each document's tokens as the compiled lexer gives them (None: handed to the fallback)."""
    lexed = lexer.lex(pa.array(codes, type=pa.large_string()), scratch)
    flat = lexed.tokens.to_pylist()
    out, at = [], 0
    for count, fallback in zip(lexed.counts.tolist(), lexed.fallback.tolist(), strict=True):
        out.append(None if fallback else flat[at : at + count])
        at += count
    assert at == len(flat)
    return out


def test_compiled_lexer_gives_the_tokens_of_the_one_document_lexer():
    codes = corpus.codes() + _fuzz(4000, seed=1)
    got = _lexed_tokens(codes)
    for code, toks in zip(codes, got, strict=True):
        if toks is not None:
            assert toks == tokens.tokens(code), repr(code[:300])
    handled = sum(t is not None for t in got)
    assert handled > 0.95 * len(codes)  # the fallback is for the rare document, not the common one


def test_arbitrary_text_never_breaks_the_lexer_and_never_disagrees_with_the_regex_path():
    """Crawled code is hostile: any code points (controls, surrogate-free Unicode, NULs), very long tokens and runs.
    Every document is either lexed exactly as `tokens.tokens` lexes it or handed to the regex path."""
    rng = random.Random(9)
    alphabet = [chr(c) for c in range(0, 0x250)] + ["中", "\u3000", "\U0001f600", "\u2028", "\x85"]
    codes = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300))) for _ in range(1500)]
    codes += ["x" * 100_000, '"' + "a" * 50_000 + '"', "/*" + "*" * 10_000, "#" * 5000, ";" * 20_000, "\x00" * 64]
    for code, toks in zip(codes, _lexed_tokens(codes), strict=True):
        if toks is not None:
            assert toks == tokens.tokens(code), repr(code[:200])
    batch = tokens.id_batch(codes)
    lists = tokens.token_lists(codes)
    assert np.array_equal(batch.ids, lists.explode().drop_nulls().hash(tokens.TOKEN_HASH_SEED).to_numpy())


def test_joined_text_is_what_code_hash_hashes():
    codes = corpus.codes()[:100] + _fuzz(300, seed=2)
    lexed = lexer.lex(pa.array(codes, type=pa.large_string()))
    for i, code in enumerate(codes):
        if not lexed.fallback[i]:
            joined = bytes(lexed.joined[lexed.joined_offsets[i] : lexed.joined_offsets[i + 1]]).decode()
            assert joined == tokens.normalised(code)


@pytest.mark.parametrize(
    "code",
    [
        "int 变量 = 1;",  # a non-ASCII letter in an identifier: Python's \w decides
        "int a\x1cb;",  # an information separator: Python's \s and Rust's disagree
        "x = 0xAB'CD + 'x';",  # the Rust stripper reads 'CD + ' as a char literal and splits the number's token
        "a = '/*\n*/ \"b\" c';",  # removing a comment joins a lone quote with a later one: the literals move
        "#if中\nx",  # a directive word followed by a non-ASCII letter
    ],
)
def test_a_document_the_lexer_cannot_be_sure_of_takes_the_regex_path_with_the_same_result(code):
    assert _lexed_tokens([code]) == [None]
    batch = tokens.id_batch(["int x = 1;", code])
    assert batch.fallback == 1
    lists = tokens.token_lists(["int x = 1;", code])
    assert batch.counts.tolist() == lists.list.len().to_list()
    assert np.array_equal(batch.ids, lists.explode().drop_nulls().hash(tokens.TOKEN_HASH_SEED).to_numpy())
    assert batch.code_hashes == tokens.code_hashes(lists)


def test_chinese_comments_and_strings_stay_on_the_compiled_path():
    code = '/* 中文注释 */ int x = 1; // 注释\nprintf("中文字符串 %d", x); # 注释\n'
    assert _lexed_tokens([code]) == [tokens.tokens(code)]


def test_id_batch_equals_the_polars_path_on_mixed_documents():
    codes = corpus.codes() + _fuzz(2000, seed=3, extra=("é", "\x1c", "\u3000", "1'0", "中"))
    batch = tokens.id_batch(codes)
    lists = tokens.token_lists(codes)
    assert 0 < batch.fallback < len(codes)
    assert batch.counts.tolist() == lists.list.len().to_list()
    assert np.array_equal(batch.ids, lists.explode().drop_nulls().hash(tokens.TOKEN_HASH_SEED).to_numpy())
    assert batch.code_hashes == tokens.code_hashes(lists)


def test_a_batch_denser_than_expected_is_lexed_again_with_room_for_every_token():
    codes = [";" * 5000, "a+b" * 2000, ""]  # one token per byte: more than the first guess of the room
    assert _lexed_tokens(codes) == [tokens.tokens(c) for c in codes]


def test_documents_past_the_chunk_size_are_lexed_in_chunks_with_the_same_result(monkeypatch):
    codes = corpus.codes()[:60]
    whole = _lexed_tokens(codes)
    whole_hashes = tokens.id_batch(codes).code_hashes
    monkeypatch.setattr(lexer, "_MAX_CHUNK", 200)  # a few documents per chunk, some longer than a chunk alone
    assert _lexed_tokens(codes) == whole
    assert tokens.id_batch(codes).code_hashes == whole_hashes == [tokens.code_hash(c) for c in codes]


def test_shard_signatures_are_those_of_the_polars_path_bit_for_bit():
    codes = corpus.codes()
    params = clusters.ClusterParams()
    shard = clusters.sign_shard(codes, params)
    lists = tokens.token_lists(codes)
    flat, counts = minhash.batch_shingles(lists, params.ngram)
    assert np.array_equal(shard.signatures, minhash.signature_matrix(flat, counts, params.num_perm, params.seed))
    assert shard.code_hashes == tokens.code_hashes(lists)
    assert shard.has_shingles.tolist() == (counts > 0).tolist()


def test_token_views_follow_arrows_layout_with_zeros_past_a_short_token():
    """Views are built from 12 bytes read whatever the token's length: the bytes past a short token must be masked
    (Arrow: an inline view is zero padded; Arrow and polars compare inline views as 16-byte words)."""
    codes = ["a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii jjjjjjjjjj kkkkkkkkkkk llllllllllll mmmmmmmmmmmmm;"]
    codes += _fuzz(500, seed=4)
    lexed = lexer.lex(pa.array(codes, type=pa.large_string()))
    words = np.frombuffer(lexed.tokens.buffers()[1], dtype=np.uint64).reshape(-1, 2)
    data = lexed.tokens.buffers()[2].to_pybytes()
    lengths = (words[:, 0] & np.uint64(0xFFFFFFFF)).astype(np.int64)
    assert sorted(set(lengths[:13].tolist())) == list(range(1, 14))
    for (lo, hi), length, token in zip(words.tolist(), lengths.tolist(), lexed.tokens.to_pylist(), strict=True):
        raw = token.encode()
        assert length == len(raw)
        inline = (lo >> 32).to_bytes(4, "little") + hi.to_bytes(8, "little")
        if length <= 12:
            assert inline == raw + bytes(12 - length)
        else:
            assert inline[:4] == raw[:4] and hi & 0xFFFFFFFF == 0  # buffer 0
            assert data[hi >> 32 : (hi >> 32) + length] == raw


def test_a_scratch_serves_batch_after_batch_and_id_batch_results_outlive_it():
    """Workers lex shard after shard into the same buffers: each batch's tokens are its own, and what id_batch
    returns is not written over by the next batch (it is copied out before the scratch is used again)."""
    scratch = lexer.Scratch()
    first, second = corpus.codes()[:40], _fuzz(300, seed=6) + corpus.codes()[40:80]
    for batch in (second, first, second):
        got = _lexed_tokens(batch, scratch)
        assert sum(t is not None for t in got) > 0.9 * len(batch)
        assert all(toks is None or toks == tokens.tokens(c) for toks, c in zip(got, batch, strict=True))
    a = lexer.lex(pa.array(first, type=pa.large_string()), scratch)
    b = lexer.lex(pa.array(second, type=pa.large_string()), scratch)  # `a` still held: fresh memory would differ
    assert a.tokens.buffers()[1].address == b.tokens.buffers()[1].address  # the largest batch's memory, again
    one = tokens.id_batch(first)
    kept = (one.ids.copy(), list(one.code_hashes))
    tokens.id_batch(second)
    assert np.array_equal(one.ids, kept[0]) and one.code_hashes == kept[1]
    assert one.code_hashes == [tokens.code_hash(c) for c in first]


def test_string_and_large_string_arrays_and_slices_of_them_lex_alike():
    """The store hands out `string` arrays (32-bit offsets), sliced into shards: read as they are, not cast."""
    codes = corpus.codes()[:50] + _fuzz(200, seed=8)
    want = _lexed_tokens(codes)
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        whole = pa.array(["pad"] * 7 + codes + ["pad"], type=kind).slice(7, len(codes))
        lexed = lexer.lex(whole)
        flat, got, at = lexed.tokens.to_pylist(), [], 0
        for count, fallback in zip(lexed.counts.tolist(), lexed.fallback.tolist(), strict=True):
            got.append(None if fallback else flat[at : at + count])
            at += count
        assert got == want, kind
