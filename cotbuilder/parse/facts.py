"""What one source file says, read in one parse and one query pass, cached by content hash.

A file shared by several units (a `data_utils.h`, a header under `op_kernel/`) is parsed once: the facts are keyed
by the sha256 of its text, never by its path. Paths are attached later, when facts are gathered into a unit.
Facts are read only for the texts grouping and the unit records ask about (file_facts); every other C/C++ file of a
source is only parsed (parse_checked), to know it parses within the limits: on asc-devkit 12% of the parsed bytes
are ever read for facts (library headers and tests travel as dependencies and harness, never read).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from ..hashing import sha256_bytes
from . import budget, cst
from .literal_scan import leftmost_matches

# The parameter and the call name are read from the ORIGINAL bytes (qualifiers such as `__gm__` kept) at node
# offsets, which masking keeps true.
# The patterns open with their literal (see literal_scan.py).
# A queue/buffer position: `TPosition::VECIN`, `QuePosition::A1`, `TQue<QuePosition::VECOUT, 2>`, `TBuf<TPosition::
# VECCALC>`, `TQue<VECIN, 1>`: one pattern per literal, run as their alternation.
_POSITION_RES = tuple(
    re.compile(literal + rb"(?<!\w" + literal + rb")" + rest)
    for literal, rest in (
        (b"TPosition", rb"\s*::\s*([A-Z][A-Z0-9_]*)"),
        (b"QuePosition", rb"\s*::\s*([A-Z][A-Z0-9_]*)"),
        (b"TQue", rb"(?:Bind)?\s*<\s*(?:AscendC\s*::\s*)?(?:(?:TPosition|QuePosition)\s*::\s*)?([A-Z][A-Z0-9_]*)"),
        (b"TBuf", rb"(?:Pool)?\s*<\s*(?:AscendC\s*::\s*)?(?:(?:TPosition|QuePosition)\s*::\s*)?([A-Z][A-Z0-9_]*)"),
    )
)
_TILING_FIELD_RE = re.compile(
    rb"TILING_DATA_FIELD_DEF(?<!\wTILING_DATA_FIELD_DEF)(_ARR|_STRUCT)?"
    rb"\s*\(\s*([^,()]+?)\s*,\s*(?:([^,()]+?)\s*,\s*)?(\w+)\s*\)"
)
_TILING_STRUCT_RE = re.compile(rb"BEGIN_TILING_DATA_DEF(?<!\wBEGIN_TILING_DATA_DEF)\s*\(\s*(\w+)\s*\)")
_OPDEF_CLASS_RE = re.compile(rb"class(?<!\wclass)\s+(\w+)\s*:\s*public\s+(?:ops\s*::\s*)?OpDef\b")
_OP_PARAM_RE = re.compile(rb"this(?<!\wthis)\s*->\s*(Input|Output)\s*\(\s*\"(\w+)\"\s*\)([^;]*);")
_OP_ATTR_RE = re.compile(rb"this(?<!\wthis)\s*->\s*Attr\s*\(\s*\"(\w+)\"\s*\)")
_OP_DTYPES_RE = re.compile(rb"\.DataType\s*\(\s*\{([^}]*)\}")
_LAUNCH_RE = re.compile(rb"<<<\s*([^,;>]+?)\s*[,>]")


@dataclass
class Function:
    name: str
    owner: str | None  # class the method belongs to (in-class or `Class::method`)
    line: int
    start: int
    end: int
    is_entry: bool
    params: list[dict]


@dataclass
class FileFacts:
    diagnostics: list[dict]  # without "file": facts are path-independent
    functions: list[Function] = field(default_factory=list)
    classes: dict[str, list[str]] = field(default_factory=dict)
    structs: dict[str, list[dict]] = field(default_factory=dict)
    free_calls: Counter = field(default_factory=Counter)  # foo(...), AscendC::Foo<T>(...)
    member_calls: Counter = field(default_factory=Counter)  # x.Foo(...), p->Foo(...)
    types: Counter = field(default_factory=Counter)
    template_types: set[str] = field(default_factory=set)
    const_exprs: dict[str, str | None] = field(default_factory=dict)  # None = assigned differently twice
    init_buffers: list[list[str]] = field(default_factory=list)
    block_dim_exprs: list[str] = field(default_factory=list)
    positions: set[str] = field(default_factory=set)
    tiling_fields: list[dict] = field(default_factory=list)
    tiling_structs: list[str] = field(default_factory=list)
    op_def: dict | None = None
    n_lines: int = 0

    @property
    def entries(self) -> list[Function]:
        return [f for f in self.functions if f.is_entry]

    @property
    def main(self) -> Function | None:
        return next((f for f in self.functions if f.name == "main" and f.owner is None), None)

    @property
    def tiling_funcs(self) -> list[str]:
        return [f.name for f in self.functions if any("TilingContext" in p["type"] for p in f.params)]


# content hash -> the text's facts, or _PARSED for a text that parsed within the limits but whose facts nobody has
# read yet (see parse_checked); one entry per text parsed, whichever
_PARSED = object()
_CACHE: dict[str, FileFacts | object] = {}
_CACHE_MAX = 8192
_by_text = threading.local()


class TextUnparseable(budget.Unparseable):
    """Raised by file_facts during an extraction when a text's facts could not be read within the per-file limits:
    `text` says which text, so the extraction can leave its files out and group the source again."""

    def __init__(self, text: str, cause: budget.Unparseable):
        super().__init__(str(cause))
        self.text = text


def file_facts(text: str) -> FileFacts:
    """The facts of `text`, parsed and read once per content. Inside `reading(time_limit)` a text read for the first
    time is read within that limit (TextUnparseable past it)."""
    memo = getattr(_by_text, "memo", None)
    if memo is not None:
        hit = memo.get(text)
        if hit is not None and hit is not _PARSED:
            return hit
    data = text.encode("utf-8", "surrogatepass")
    key = sha256_bytes(data)
    hit = _CACHE.get(key)
    if hit is None or hit is _PARSED:
        hit = _store(key, _read_within_limit(text, data))
    if memo is not None:
        memo[text] = hit
    return hit


def parse_checked(text: str) -> None:
    """Parse `text` within the current budget (budget.Unparseable past it) without reading its facts: the check a file
    whose facts no unit needs still passes to be kept. A text parsed or read before is not parsed again."""
    memo = getattr(_by_text, "memo", None)
    if memo is not None and text in memo:
        return
    data = text.encode("utf-8", "surrogatepass")
    key = sha256_bytes(data)
    if key not in _CACHE:
        cst.parse_bytes(data)
        _store(key, _PARSED)
    if memo is not None:
        memo.setdefault(text, _PARSED)


def _store(key: str, value):
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()  # simple bound: a crawl batch rarely revisits files from far back
    _CACHE[key] = value
    return value


_NO_LIMIT = object()


def _read_within_limit(text: str, data: bytes) -> FileFacts:
    seconds = getattr(_by_text, "limit", _NO_LIMIT)
    if seconds is _NO_LIMIT:
        return extract_facts(data)
    try:
        with budget.limit(seconds):
            return extract_facts(data)
    except budget.Unparseable as exc:
        raise TextUnparseable(text, exc) from exc


@contextlib.contextmanager
def reading(time_limit: float | None) -> Iterator[None]:
    """While one source is extracted: file_facts answers a text it was given before without encoding and hashing it
    again (grouping and the unit records ask for most files' facts two or three times), and reads a new text's facts
    within `time_limit` seconds. The memo (it holds the texts) goes when the source is done; the cache by content
    hash stays."""
    outer = getattr(_by_text, "memo", None)
    if outer is not None:
        yield  # nested: the outer extraction's memo and limit serve
        return
    _by_text.memo = {}
    _by_text.limit = time_limit
    try:
        yield
    finally:
        _by_text.memo = None
        del _by_text.limit


# The capture lists facts only count or gather into sets: their order does not matter, so they are not sorted.
_COUNTED = frozenset({"call.free", "call.member", "type", "targ"})

# Node kinds and fields by id: comparing `node.kind_id` and calling `child_by_field_id` cost a fifth and a half of
# `node.type` and `child_by_field_name`, and the walks below make hundreds of thousands of them on a large source.
_DECLARATOR, _PARAMETERS, _NAME, _VALUE, _DEFAULT_VALUE, _ARGUMENTS, _BODY, _TYPE, _SIZE = (
    cst.field(name)
    for name in ("declarator", "parameters", "name", "value", "default_value", "arguments", "body", "type", "size")
)
_K_INIT_DECLARATOR = cst.kinds("init_declarator")
_K_FUNCTION_DECLARATOR = cst.kinds("function_declarator")
_K_TYPE_QUALIFIER = cst.kinds("type_qualifier")
_K_FIELD_DECLARATION = cst.kinds("field_declaration")
_K_COMPOUND_STATEMENT = cst.kinds("compound_statement")
_K_LOCAL_SCOPE_ENDS = cst.kinds("translation_unit", "namespace_definition", "field_declaration_list")
_K_PARAMETER = cst.kinds("parameter_declaration", "optional_parameter_declaration")
_K_OPTIONAL_PARAMETER = cst.kinds("optional_parameter_declaration")
_K_NAME = cst.kinds("identifier", "field_identifier")
_K_IDENTIFIER = cst.kinds("identifier")
_K_CLASS = cst.kinds("class_specifier", "struct_specifier")
_K_NOT_IN_CLASS = cst.kinds("function_definition", "translation_unit", "namespace_definition")
_K_CALL = cst.kinds("call_expression")
_K_COMMENT = cst.kinds("comment")
_K_ARRAY_DECLARATOR = cst.kinds("array_declarator")
_K_FIELD_IDENTIFIER = cst.kinds("field_identifier")


def extract_facts(data: bytes) -> FileFacts:
    masked, tree = cst.parse_bytes(data)
    facts = FileFacts(diagnostics=cst.diagnostics(tree, path=""), n_lines=data.count(b"\n") + 1)
    for d in facts.diagnostics:
        d.pop("file", None)
    caps = cst.captures("facts", tree.root_node, unordered=_COUNTED)
    budget.check()
    # names are counted as bytes and decoded once per distinct name (a file names the same few hundred often)
    for kind, counter in (("call.free", facts.free_calls), ("call.member", facts.member_calls)):
        nodes = caps.get(kind, ())
        raws = [data[node.start_byte : node.end_byte] for node in nodes]
        names = Counter(raws)
        if not _ARG_CALLS_BYTES.isdisjoint(names):  # their arguments are read in source order
            calls = [(node, raw) for node, raw in zip(nodes, raws, strict=True) if raw in _ARG_CALLS_BYTES]
            for node, raw in sorted(calls, key=lambda call: cst.position(call[0])):
                _call_args(facts, raw.decode(), node, data)
        _count_decoded(names, counter)
    _count_decoded(Counter([data[node.start_byte : node.end_byte] for node in caps.get("type", ())]), facts.types)
    seen_targs: set[bytes] = set()
    any_cast = b"_cast" in data  # a cast's name ends with it: without one, no argument is a cast's
    for node in caps.get("targ", ()):
        raw = data[node.start_byte : node.end_byte]
        if raw in seen_targs:
            continue
        if not (any_cast and _is_cast_argument(node, data)):  # static_cast<int32_t>(x) says nothing of the dtypes
            seen_targs.add(raw)
            facts.template_types.add(_squash(raw.decode("utf-8", "replace")))
    has_global = b"__global__" in data
    has_class = b"class" in data or b"struct" in data  # no class or struct keyword, no method in one
    for node in caps.get("function", ()):
        fn = _function(node, data, has_global, has_class)
        if fn is not None:
            facts.functions.append(fn)
    for node in caps.get("class.name", ()):
        facts.classes.setdefault(_text(node, data), [])
    for node in caps.get("struct", ()):
        name_node = node.child_by_field_id(_NAME)
        if name_node is not None:
            facts.structs[_text(name_node, data)] = _struct_fields(node, data)
    # (name, the declarator holding it) in source order: an initialised variable is captured as its init_declarator
    # (its name is a child: no parent lookup), a class member's default as its name
    # (holders come sorted, and a holder starts with its name: the names are in order too)
    consts = [(holder.child_by_field_id(_DECLARATOR), holder) for holder in caps.get("const.init", ())]
    members = caps.get("const.name", ())
    if members:
        consts += [(node, None) for node in members]
        consts.sort(key=_name_position)
    for node, holder in consts:
        if holder is None:
            holder = node.parent
        if not _is_constant_like(holder, data):
            continue
        value_node = holder.child_by_field_id(_VALUE) or holder.child_by_field_id(_DEFAULT_VALUE)
        if value_node is None:
            continue
        name = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
        value = _squash(data[value_node.start_byte : value_node.end_byte].decode("utf-8", "replace"))
        if name in facts.const_exprs and facts.const_exprs[name] != value:
            facts.const_exprs[name] = None
        else:
            facts.const_exprs[name] = value
    facts.functions.sort(key=lambda f: f.start)  # source order (captures come grouped, not sorted)
    for fn in facts.functions:
        if fn.owner is not None:
            facts.classes.setdefault(fn.owner, [])
            if fn.name not in facts.classes[fn.owner]:
                facts.classes[fn.owner].append(fn.name)
    budget.check()
    _lexical_facts(facts, data)
    return facts


def _count_decoded(raw_counts: Counter, counter: Counter) -> None:
    """Add counts of raw names to `counter` by decoded name (two invalid byte strings can decode alike)."""
    decoded: dict[str, int] = {}
    for raw, n in raw_counts.items():
        name = raw.decode("utf-8", "replace")
        decoded[name] = decoded.get(name, 0) + n
    counter.update(decoded)


_CONST_WORDS = (b"const", b"constexpr")


def _is_constant_like(holder: Node, data: bytes) -> bool:
    """const/constexpr anywhere, or a local variable (`uint32_t blockDim = 8;` in main). A class member's default
    (`uint32_t tileLength = 0;` later set in Init) is not a constant of the kernel. `holder` is the name's parent."""
    decl = holder.parent if holder.kind_id in _K_INIT_DECLARATOR else holder
    if decl is None:
        return False
    # the qualifier's text is in the original bytes too (masking only blanks): no "const" there, no child to look at
    if data.find(b"const", decl.start_byte, decl.end_byte) >= 0 and any(
        c.kind_id in _K_TYPE_QUALIFIER and c.text in _CONST_WORDS for c in decl.children
    ):
        return True
    if decl.kind_id in _K_FIELD_DECLARATION:
        return False
    parent = decl.parent
    while parent is not None:
        kind = parent.kind_id
        if kind in _K_COMPOUND_STATEMENT:
            return True
        if kind in _K_LOCAL_SCOPE_ENDS:
            return False
        parent = parent.parent
    return False


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _squash(text: str) -> str:
    return " ".join(text.split())


_ARG_CALLS = frozenset({"InitBuffer", "ICPU_RUN_KF", "SetBlockDim"})
_ARG_CALLS_BYTES = frozenset(name.encode() for name in _ARG_CALLS)


def _name_position(const: tuple[Node, Node | None]) -> tuple[int, int]:
    return cst.position(const[0])


def _is_cast_argument(targ_node: Node, data: bytes) -> bool:
    args = targ_node.parent  # looked up once: tree-sitter finds a parent by walking down from the root
    owner = args.parent if args is not None else None
    name = owner.child_by_field_id(_NAME) if owner is not None else None
    return name is not None and data[name.start_byte : name.end_byte].endswith(b"_cast")


def _call_args(facts: FileFacts, name: str, name_node: Node, data: bytes) -> None:
    """Arguments of the few calls whose values matter: buffer sizes and launch block dims."""
    call = name_node.parent
    while call is not None and call.kind_id not in _K_CALL:
        call = call.parent
    args_node = call.child_by_field_id(_ARGUMENTS) if call is not None else None
    if args_node is None:
        return
    args = [_squash(_text(a, data)) for a in args_node.named_children if a.kind_id not in _K_COMMENT]
    if name == "InitBuffer":
        facts.init_buffers.append(args)
    elif name == "ICPU_RUN_KF" and len(args) >= 2:
        facts.block_dim_exprs.append(args[1])
    elif name == "SetBlockDim" and args:
        facts.block_dim_exprs.append(args[0])


def _declarator_of(node: Node) -> Node | None:
    """The function_declarator inside a definition's declarator chain (pointer/reference return types nest it)."""
    decl = node.child_by_field_id(_DECLARATOR)
    while decl is not None and decl.kind_id not in _K_FUNCTION_DECLARATOR:
        decl = decl.child_by_field_id(_DECLARATOR)
    return decl


def _function(node: Node, data: bytes, has_global: bool = True, has_class: bool = True) -> Function | None:
    """`has_global` / `has_class`: whether the file holds `__global__` / a class or struct keyword at all (when not,
    no function is an entry / a method of an enclosing class)."""
    decl = _declarator_of(node)
    if decl is None:
        return None
    name_node = decl.child_by_field_id(_DECLARATOR)
    if name_node is None:
        return None
    owner = None
    full = data[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
    if "::" in full:
        scope, _, bare = full.rpartition("::")
        owner = _squash(scope.split("<", 1)[0]).split("::")[-1].strip() or None
        name = bare.strip()
    else:
        name = full.strip()
        owner = _enclosing_class(node, data) if has_class else None
    start = node.start_byte
    is_entry = has_global and owner is None and _global_before(data, start, decl.start_byte)
    params = []
    plist = decl.child_by_field_id(_PARAMETERS)
    if plist is not None:
        children = plist.children  # with the '(' and ',' between: each parameter's previous sibling
        for i, p in enumerate(children):
            if p.kind_id in _K_PARAMETER:
                params.append(_param(p, children[i - 1] if i else None, data))
    return Function(
        name=name,
        owner=owner,
        line=decl.start_point[0] + 1,
        start=start,
        end=node.end_byte,
        is_entry=is_entry,
        params=params,
    )


def _global_before(data: bytes, start: int, decl_start: int) -> bool:
    """`__global__` among the qualifiers before a function's declarator. They were masked, so the definition node may
    start after them: look back from the node to the previous statement boundary (within 2000 bytes)."""
    lo = max(0, start - 2000)
    cut = max(data.rfind(b";", lo, decl_start), data.rfind(b"}", lo, decl_start), data.rfind(b"{", lo, decl_start))
    return data.find(b"__global__", cut + 1 if cut >= 0 else lo, decl_start) >= 0


def _param(p: Node, before: Node | None, data: bytes) -> dict:
    """`before`: the node before `p` in its parameter list (its '(' or ',')."""
    ident = p.child_by_field_id(_DECLARATOR)
    while ident is not None and ident.kind_id not in _K_NAME:
        nxt = ident.child_by_field_id(_DECLARATOR)
        if nxt is None:
            nxt = next((c for c in ident.named_children if c.kind_id in _K_IDENTIFIER), None)
        ident = nxt
    if ident is None:
        return {"name": "", "type": _squash(_text(p, data))}
    # masked qualifiers (`__gm__`) sit before the node's start: begin right after the preceding '(' or ','
    start = before.end_byte if before is not None else p.start_byte
    name_start, name_end = ident.start_byte, ident.end_byte
    type_text = data[start:name_start] + data[name_end : p.end_byte]
    if p.kind_id in _K_OPTIONAL_PARAMETER:
        type_text = type_text.split(b"=", 1)[0]
    return {
        "name": data[name_start:name_end].decode("utf-8", "replace"),
        "type": _squash(type_text.decode("utf-8", "replace")),
    }


def _enclosing_class(node: Node, data: bytes) -> str | None:
    parent = node.parent
    while parent is not None:
        kind = parent.kind_id
        if kind in _K_CLASS:
            name = parent.child_by_field_id(_NAME)
            return _text(name, data).split("<", 1)[0] if name is not None else None
        if kind in _K_NOT_IN_CLASS:
            return None
        parent = parent.parent
    return None


def _struct_fields(node: Node, data: bytes) -> list[dict]:
    body = node.child_by_field_id(_BODY)
    out = []
    if body is None:
        return out
    for f in body.named_children:
        if f.kind_id not in _K_FIELD_DECLARATION:
            continue
        type_node = f.child_by_field_id(_TYPE)
        if type_node is None:
            continue
        for d in f.children_by_field_id(_DECLARATOR):
            array_len = None
            inner = d
            if d.kind_id in _K_ARRAY_DECLARATOR:
                size = d.child_by_field_id(_SIZE)
                array_len = _text(size, data) if size is not None else None
                inner = d.child_by_field_id(_DECLARATOR)
            if inner is not None and inner.kind_id in _K_FIELD_IDENTIFIER:
                out.append(
                    {"name": _text(inner, data), "type": _squash(_text(type_node, data)), "array_len": array_len}
                )
    return out


def _lexical_facts(facts: FileFacts, data: bytes) -> None:
    """Facts carried by macros and launch syntax, which the masked tree does not show: read from the text."""
    facts.positions.update(m.group(1).decode() for m in leftmost_matches(_POSITION_RES, data))
    if b"TILING_DATA_FIELD_DEF" in data:
        for m in _TILING_FIELD_RE.finditer(data):
            kind, ftype, arr, name = m.groups()
            entry = {"name": name.decode(), "type": _squash(ftype.decode("utf-8", "replace"))}
            if kind == b"_ARR" and arr is not None:
                entry["array_len"] = arr.decode().strip()
            elif kind == b"_STRUCT":
                entry["struct"] = True
            facts.tiling_fields.append(entry)
        facts.tiling_structs = [m.group(1).decode() for m in _TILING_STRUCT_RE.finditer(data)]
    if b"<<<" in data:
        facts.block_dim_exprs.extend(_squash(m.group(1).decode("utf-8", "replace")) for m in _LAUNCH_RE.finditer(data))
    if b"OpDef" in data:
        cls = _OPDEF_CLASS_RE.search(data)
        if cls:
            params: dict[str, list[dict]] = {"inputs": [], "outputs": []}
            for m in _OP_PARAM_RE.finditer(data):
                dtypes = []
                d = _OP_DTYPES_RE.search(m.group(3))
                if d:
                    dtypes = [_squash(x.decode()).replace("ge::", "") for x in d.group(1).split(b",") if x.strip()]
                params["inputs" if m.group(1) == b"Input" else "outputs"].append(
                    {"name": m.group(2).decode(), "dtypes": dtypes}
                )
            facts.op_def = {
                "name": cls.group(1).decode(),
                **params,
                "attrs": [m.group(1).decode() for m in _OP_ATTR_RE.finditer(data)],
            }
