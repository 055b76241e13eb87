"""The golden computation of a unit's generator (`gen_data.py`), read with `ast`: a numpy expression over the arrays
the generator writes as inputs.

The generator is crawled, hostile text. Nothing here runs it: the statements on the path to the golden's `tofile` are
followed symbolically (assignments inlined, `if` on constants folded, helper functions inlined), and the resulting
expression must pass a strict allow-list (data/statement_numpy.toml). What it says is only a claim: the solvability
gate (statement.py) evaluates it in the sandbox on the generator's real inputs and keeps it only if it reproduces the
golden. Why our own walker: no library slices a Python program down to one value's expression.
"""

from __future__ import annotations

import ast
import copy
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePosixPath as Path
from typing import Any

from ..paths import package_data

_UNKNOWN_PREFIX = "__unknown__"
_ARGV = " argv"  # env key of sys.argv (not a Python name)
_NS = " namespace "  # env key prefix of an argparse result: the option values as constants


def _unknown(why: str) -> ast.Name:
    """A value the text does not fix; `why` names how it was set (it ends up in the reason)."""
    return ast.Name(id=_UNKNOWN_PREFIX + why, ctx=ast.Load())


_MAX_INLINE_DEPTH = 4


@cache
def allowed() -> dict[str, frozenset[str]]:
    data = tomllib.loads(package_data("annotate/data/statement_numpy.toml").read_text(encoding="utf-8"))
    return {k: frozenset(v) for k, v in data.items()}


@dataclass
class Extracted:
    """What the generator writes: inputs {file: array name}, goldens {file: expression source}, or why not."""

    inputs: dict[str, str] = field(default_factory=dict)
    goldens: dict[str, str] = field(default_factory=dict)
    line: int = 0  # line of the (first) golden's tofile
    reason: str = ""
    kind: str = "numpy expression"  # or "numpy program" (goldens then hold the sliced program, statement.py)


class _Unresolvable(Exception):
    pass


def _const(node: ast.AST) -> Any:
    """A constant's value (numbers, strings, tuples, comparisons and boolean logic of them), else _Unresolvable."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _const(node.left), _const(node.comparators[0])
        ops = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b}
        ops |= {ast.Gt: lambda a, b: a > b, ast.LtE: lambda a, b: a <= b, ast.GtE: lambda a, b: a >= b}
        ops |= {ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
        ops |= {ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b}
        if type(node.ops[0]) in ops:
            return ops[type(node.ops[0])](left, right)
    if isinstance(node, ast.BoolOp):
        for v in node.values:  # short-circuit, as Python does: `len(argv) > 1 and argv[1] == "x"`
            value = _const(v)
            if bool(value) != isinstance(node.op, ast.And):
                return value
        return value
    if isinstance(node, ast.Subscript):
        seq, index = _const(node.value), _const(node.slice)
        try:
            return seq[index]
        except (IndexError, KeyError, TypeError):
            raise _Unresolvable from None
    if (  # int(128), float(2): a cast of a constant
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("int", "float", "bool", "len")
        and len(node.args) == 1
        and not node.keywords
    ):
        value = _const(node.args[0])
        if node.func.id == "len" and isinstance(value, (list, tuple, str)):
            return len(value)
        if isinstance(value, (int, float, bool, str)) and node.func.id != "len":
            try:
                return {"int": int, "float": float, "bool": bool}[node.func.id](value)
            except ValueError:
                raise _Unresolvable from None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy"):
        return ("numpy", _DTYPE_ALIASES.get(node.attr, node.attr))  # np.float32 == np.half compares by name
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _const(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = _const(node.left), _const(node.right)
        if isinstance(left, int) and isinstance(right, int) and abs(left) < 2**40 and abs(right) < 2**40:
            ops = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.FloorDiv: int.__floordiv__}
            return ops[type(node.op)](left, right)
    raise _Unresolvable


def _const_or_none(node: ast.AST) -> Any:
    try:
        return _const(node)
    except _Unresolvable:
        return None


_DTYPE_ALIASES = {"half": "float16", "single": "float32", "double": "float64", "float_": "float64"}


def _path_text(node: ast.AST, env: dict[str, ast.AST]) -> str | None:
    """A tofile path as text: a constant, an f-string's constant parts, os.path.join of such; None when not static."""
    node = _substitute(node, env, frozenset())
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
        return "".join(str(p) for p in parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        parts = [_path_text(a, {}) for a in node.args]
        return "/".join(p for p in parts if p) if all(p is not None for p in parts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _path_text(node.left, {}), _path_text(node.right, {})
        return left + right if left is not None and right is not None else None
    return None


def _norm(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path.replace("//", "/")


def _is_golden_path(path: str) -> bool:
    """Under output/ (the own harness's rule), or a file named golden* (a kernel UT's data folder)."""
    return _norm(path).startswith("output/") or "/output/" in path or Path(path).name.startswith("golden")


class _Subst(ast.NodeTransformer):
    def __init__(self, env: dict[str, ast.AST], leaves: frozenset[str]):
        self.env, self.leaves = env, leaves

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.env and node.id not in self.leaves:
            return copy.deepcopy(self.env[node.id])
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and _NS + node.value.id in self.env:  # args.scenarioNum
            ns = self.env[_NS + node.value.id]
            for k, v in zip(ns.keys, ns.values, strict=True):
                if k.value == node.attr:
                    return copy.deepcopy(v)
        # sys.argv: the command line the harness runs the generator with, when known
        if isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr == "argv" and _ARGV in self.env:
            return copy.deepcopy(self.env[_ARGV])
        return self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        node = self.generic_visit(node)
        try:
            return node.body if _const(node.test) else node.orelse
        except _Unresolvable:
            return node


def _substitute(node: ast.AST, env: dict[str, ast.AST], leaves: frozenset[str]) -> ast.AST:
    return _Subst(env, leaves).visit(copy.deepcopy(node))


def _assigned_names(stmts: list[ast.stmt]) -> set[str]:
    names = set()
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            # `golden[i] = ...`, `x.attr = ...`, `x += ...`: the array they start from changes too
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            for target in targets:
                while isinstance(target, (ast.Subscript, ast.Attribute, ast.Starred)):
                    target = target.value
                if isinstance(target, ast.Name):
                    names.add(target.id)
            # a method call in a loop may change its receiver in place (x.sort(), x.fill(v))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if isinstance(node.func.value, ast.Name) and node.func.attr != "tofile":
                    names.add(node.func.value.id)
    return names


class _Walker:
    """Follows statements in order, keeping name -> inlined expression; records every `X.tofile(path)`."""

    def __init__(self, module: ast.Module, leaves: frozenset[str]):
        self.functions = {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}
        self.modules = {
            a.asname or a.name.partition(".")[0] for n in ast.walk(module) if isinstance(n, ast.Import) for a in n.names
        }
        self.leaves = leaves
        self.writes: list[tuple[str, ast.AST, int, str]] = []  # (path, expression, line, why not usable)
        self.depth = 0
        self.options: list[dict[str, Any]] = []  # argparse add_argument calls seen, in order

    def run(self, stmts: list[ast.stmt], env: dict[str, ast.AST], shaky: str = "") -> ast.AST | None:
        """Walk `stmts`; returns the expression of a `return` reached (for inlined helpers)."""
        for stmt in stmts:
            if isinstance(stmt, ast.Return):
                return _substitute(stmt.value, env, self.leaves) if stmt.value else None
            if isinstance(stmt, ast.Assign):
                value = self.expr(stmt.value, env)
                for target in stmt.targets:
                    self.bind(target, value, env)
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                self.bind(stmt.target, self.expr(stmt.value, env), env)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                name = stmt.target.id
                current = ast.Name(id=name, ctx=ast.Load())
                env[name] = self.expr(ast.BinOp(left=current, op=stmt.op, right=stmt.value), env)
            elif isinstance(stmt, ast.If):
                try:
                    branch = stmt.body if _const(_substitute(stmt.test, env, frozenset())) else stmt.orelse
                    ret = self.run(branch, env, shaky)
                    if ret is not None:
                        return ret
                except _Unresolvable:
                    for name in _assigned_names(stmt.body + stmt.orelse) - self.modules:
                        env[name] = _unknown("set under a condition the text does not fix")
                    self.run(stmt.body + stmt.orelse, dict(env), "written under a condition the text does not fix")
            elif isinstance(stmt, ast.For) and self.loop(stmt, env):
                continue
            elif isinstance(stmt, (ast.For, ast.While, ast.AsyncFor, ast.Try)):
                for name in _assigned_names([stmt]) - self.modules:
                    env[name] = _unknown("set in a loop or try block")
                body = list(getattr(stmt, "body", [])) + list(getattr(stmt, "orelse", []))
                self.run(body, dict(env), "written inside a loop or try block")
            elif isinstance(stmt, ast.With):
                ret = self.run(stmt.body, env, shaky)
                if ret is not None:
                    return ret
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self.call_statement(stmt.value, env, shaky)
            elif isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Delete)):
                for name in getattr(stmt, "names", []):
                    env[name] = _unknown("changed by exec or eval")
        return None

    def loop(self, stmt: ast.For, env: dict[str, ast.AST]) -> bool:
        """Two loops followed exactly (True): one that never runs (`range(0)`), and an element-wise fill
        `for i in range(n): out[i] = f(a[i], b[i])` of an array made by np.zeros, turned into `f(a, b)` cast to that
        array's dtype (the gate then checks that it covers the whole array)."""
        it = stmt.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args):
            return False
        if stmt.orelse or not isinstance(stmt.target, ast.Name):
            return False
        try:
            if len(it.args) == 1 and _const(_substitute(it.args[0], env, frozenset())) <= 0:
                return True
        except (_Unresolvable, TypeError):
            pass
        if len(it.args) != 1 or len(stmt.body) != 1 or not isinstance(stmt.body[0], ast.Assign):
            return False
        assign, i = stmt.body[0], stmt.target.id
        target = assign.targets[0]
        if not (
            len(assign.targets) == 1
            and isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(target.slice, ast.Name)
            and target.slice.id == i
        ):
            return False
        out = target.value.id
        dtype = _zeros_dtype(env.get(out))
        if dtype is None:
            return False

        class _Drop(ast.NodeTransformer):  # a[i] -> a; math.f -> np.f
            def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
                if isinstance(node.slice, ast.Name) and node.slice.id == i:
                    return self.visit(node.value)
                return self.generic_visit(node)

            def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
                if isinstance(node.value, ast.Name) and node.value.id == "math":
                    return ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr=node.attr, ctx=ast.Load())
                return self.generic_visit(node)

        vector = _Drop().visit(copy.deepcopy(assign.value))
        if any(isinstance(n, ast.Name) and n.id == i for n in ast.walk(vector)):
            return False  # the index is used otherwise than to pick the element
        call = ast.Call(func=ast.Attribute(value=vector, attr="astype", ctx=ast.Load()), args=[dtype], keywords=[])
        env[out] = self.expr(call, env)
        return True

    def bind(self, target: ast.AST, value: ast.AST, env: dict[str, ast.AST]) -> None:
        if _too_big(value):  # inlining doubles `x = x + x` each time: a hostile text must not blow up the host
            value = _unknown("too large to inline")
        if isinstance(target, ast.Name) and _is_parse_args(value) and self.options and _ARGV in env:
            parsed = _parse_argv(self.options, [_const_or_none(e) for e in env[_ARGV].elts[1:]])
            if parsed is not None:
                env[_NS + target.id] = ast.Dict(
                    keys=[ast.Constant(value=k) for k in parsed],
                    values=[ast.Constant(value=v) for v in parsed.values()],
                )
            env[target.id] = value
        elif isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else None
            for i, t in enumerate(target.elts):
                self.bind(
                    t,
                    elts[i]
                    if elts and len(elts) == len(target.elts)
                    else _unknown("unpacked from a value the text does not fix"),
                    env,
                )
        elif (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(_const_or_none(target.slice), int)
            and (dtype := _zeros_dtype(env.get(target.value.id))) is not None
        ):
            # `out[k] = v` into a 1-D zeros array: element k is v, the rest stays (the gate checks the result)
            before = env[target.value.id]
            size = ast.Attribute(value=before, attr="size", ctx=ast.Load())
            index = ast.Call(func=_np("arange"), args=[size], keywords=[])
            pick = ast.Compare(left=index, ops=[ast.Eq()], comparators=[target.slice])
            where = ast.Call(func=_np("where"), args=[pick, value, before], keywords=[])
            env[target.value.id] = ast.Call(
                func=ast.Attribute(value=where, attr="astype", ctx=ast.Load()), args=[dtype], keywords=[]
            )
        elif (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(target.slice, ast.Slice)
            and target.slice.step is None
            and (target.slice.lower is None or _const_or_none(target.slice.lower) == 0)
            and (dtype := _zeros_dtype(env.get(target.value.id))) is not None
        ):
            # `out[:n] = f(x)` into a zeros array: `f(x)` in out's dtype (the gate checks n covers the whole array)
            cast = ast.Call(func=ast.Attribute(value=value, attr="astype", ctx=ast.Load()), args=[dtype], keywords=[])
            env[target.value.id] = cast
        else:  # x[i] = ..., x.attr = ...: the array changes in a way we do not follow
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    env[node.id] = _unknown("changed element-wise in place")

    def expr(self, node: ast.AST, env: dict[str, ast.AST]) -> ast.AST:
        """Substitute known names; inline a call to a helper function of the module by its returned expression."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in self.functions
            and self.depth < _MAX_INLINE_DEPTH
        ):
            ret = self.inline(self.functions[node.func.id], node, env, "")
            return ret if ret is not None else _unknown("returned by a helper that could not be inlined")
        walker = self

        class _Inline(_Subst):  # a helper call nested in the expression (`gelu(x).astype(...)`)
            def visit_Call(self, call: ast.Call) -> ast.AST:
                if isinstance(call.func, ast.Name) and call.func.id in walker.functions:
                    return walker.expr(call, env)
                return self.generic_visit(call)

        out = _Inline(env, self.leaves).visit(copy.deepcopy(node))
        if not isinstance(out, ast.Constant):  # `float(sys.argv[2])` with argv known: the number itself
            value = _const_or_none(out)
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                return ast.Constant(value=value)
        return out

    def inline(self, fn: ast.FunctionDef, call: ast.Call, env: dict[str, ast.AST], shaky: str) -> ast.AST | None:
        local = {k: v for k, v in env.items()}  # module constants stay visible
        params = fn.args.args
        defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
        given = {p.arg: self.expr(a, env) for p, a in zip(params, call.args, strict=False)}
        given |= {k.arg: self.expr(k.value, env) for k in call.keywords if k.arg}
        for p, d in zip(params, defaults, strict=True):
            local[p.arg] = given.get(p.arg, d if d is not None else _unknown("a parameter with no value"))
        self.depth += 1
        try:
            return self.run(fn.body, local, shaky)
        finally:
            self.depth -= 1

    def call_statement(self, call: ast.Call, env: dict[str, ast.AST], shaky: str) -> None:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "add_argument":
            self.options.append(_option(call, env))
            return
        if isinstance(func, ast.Attribute) and func.attr == "tofile" and call.args:
            path = _path_text(call.args[0], env)
            if path is not None:
                self.writes.append((_norm(path), self.expr(func.value, env), call.lineno, shaky))
            return
        if isinstance(func, ast.Name) and func.id in self.functions and self.depth < _MAX_INLINE_DEPTH:
            self.inline(self.functions[func.id], call, env, shaky)
            return
        if isinstance(func, ast.Name) and func.id in ("exec", "eval", "setattr", "globals", "locals", "vars"):
            for name in list(env):  # anything may have changed
                env[name] = _unknown("changed by exec or eval")
            return
        # a method call may change its receiver in place (x.sort(), x.fill(0), np.copyto(x, ...))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in env:
            if func.attr not in ("tofile", "seed"):
                env[func.value.id] = _unknown("changed in place by a method call")
        for arg in call.args:
            if isinstance(arg, ast.Name) and isinstance(func, ast.Attribute) and func.attr not in ("makedirs", "seed"):
                env[arg.id] = _unknown("passed to a call that may change it")


_MAX_NODES = 4000


def _too_big(node: ast.AST) -> bool:
    for count, _ in enumerate(ast.walk(node)):
        if count > _MAX_NODES:
            return True
    return False


def _is_parse_args(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parse_args"


def _option(call: ast.Call, env: dict[str, ast.AST]) -> dict[str, Any]:
    """One add_argument call: flags, dest, type, default, action (None values where the text does not fix them)."""
    flags = [_const_or_none(a) for a in call.args]
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    longs = [f for f in flags if isinstance(f, str) and f.startswith("--")]
    name = (longs or flags or [""])[0] or ""
    dest = _const_or_none(kw["dest"]) if "dest" in kw else str(name).lstrip("-").replace("-", "_")
    kind = kw.get("type")
    default = _const_or_none(_substitute(kw["default"], env, frozenset())) if "default" in kw else None
    action = _const_or_none(kw["action"]) if "action" in kw else None
    return {
        "flags": [f for f in flags if isinstance(f, str)],
        "dest": dest,
        "type": kind.id if isinstance(kind, ast.Name) else None,
        "default": False if action == "store_true" and "default" not in kw else default,
        "action": action,
        "positional": bool(flags) and isinstance(flags[0], str) and not flags[0].startswith("-"),
    }


def _parse_argv(options: list[dict[str, Any]], argv: list[Any]) -> dict[str, Any] | None:
    """The namespace argparse would build from `argv`, for the simple cases (store, store_true, int/float/str);
    None when the command line holds something this does not follow."""
    values = {o["dest"]: o["default"] for o in options}
    by_flag = {f: o for o in options for f in o["flags"] if f.startswith("-")}
    positional = [o for o in options if o["positional"]]
    cast = {"int": int, "float": float, "str": str, None: str}
    i = 0
    while i < len(argv):
        token = argv[i]
        if not isinstance(token, str):
            return None
        flag, eq, inline = token.partition("=")
        if flag in by_flag:
            o = by_flag[flag]
            if o["action"] == "store_true":
                values[o["dest"]] = True
                i += 1
                continue
            raw = inline if eq else (argv[i + 1] if i + 1 < len(argv) else None)
            i += 1 if eq else 2
        elif not token.startswith("-") and positional:
            o, raw = positional.pop(0), token
            i += 1
        else:
            return None
        if o["type"] not in cast or not isinstance(raw, str):
            return None
        try:
            values[o["dest"]] = cast[o["type"]](raw)
        except ValueError:
            return None
    return values


def _np(attr: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr=attr, ctx=ast.Load())


def _zeros_dtype(node: ast.AST | None) -> ast.AST | None:
    """T of `np.zeros(shape).astype(T)` or `np.zeros(shape, dtype=T)`; None for anything else."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr == "astype" and len(node.args) == 1 and _is_zeros(node.func.value):
        return node.args[0]
    if node.func.attr == "zeros":
        return next((k.value for k in node.keywords if k.arg == "dtype"), node.args[1] if len(node.args) > 1 else None)
    return None


def _is_zeros(node: ast.AST) -> bool:
    """np.zeros(...), or an array this module already made from one (`np.where(np.arange(n) == k, v, zeros)`)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("zeros", "where")


def _input_leaves(module: ast.Module) -> frozenset[str]:
    """Names the generator writes to a file outside output/ (found by text: their values are the harness's inputs)."""
    out = set()
    for node in ast.walk(module):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "tofile"
            and isinstance(node.func.value, ast.Name)
            and node.args
        ):
            path = _path_text(node.args[0], {})
            if path is None or not _is_golden_path(path):
                out.add(node.func.value.id)
    return frozenset(out)


NOT_PYTHON = "generator: not valid Python"


def _parse(source: str) -> ast.Module | None:
    """The generator's syntax tree; None when it is not Python (or too deep or large for the parser)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _numpy_aliases(module: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name == "numpy"}
    return names


def extract(source: str, argv: list[str] | None = None) -> Extracted:
    """The inputs and golden expressions a generator's text states (still unchecked: see statement.check).
    `argv`: sys.argv as the harness runs the generator (script name first), when known."""
    module = _parse(source)
    if module is None:
        return Extracted(reason=NOT_PYTHON)
    leaves = _input_leaves(module)
    walker = _Walker(module, leaves)
    env: dict[str, ast.AST] = {}
    if argv is not None:
        env[_ARGV] = ast.List(elts=[ast.Constant(value=a) for a in argv], ctx=ast.Load())
    main_block: list[ast.stmt] = []
    top: list[ast.stmt] = []
    for stmt in module.body:
        if isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test):
            main_block = stmt.body
        elif not isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            top.append(stmt)
    walker.run(top + main_block, env)
    aliases = _numpy_aliases(module)
    out = Extracted()
    for path, expression, line, shaky in walker.writes:
        if not _is_golden_path(path):
            if isinstance(expression, ast.Name) and expression.id in leaves:
                out.inputs[path] = expression.id
            continue
        if shaky:
            return Extracted(reason=f"generator: the golden is {shaky}")
        text, why = _checked(expression, set(out.inputs.values()) | leaves, aliases)
        if why:
            return Extracted(reason=f"generator: {why}")
        out.goldens[path] = text
        out.line = out.line or line
    if not out.goldens:
        return Extracted(reason="generator: no golden written with tofile under output/")
    used = {n.id for t in out.goldens.values() for n in ast.walk(ast.parse(t, mode="eval")) if isinstance(n, ast.Name)}
    missing = used - {"np"} - set(out.inputs.values())
    if missing:
        return Extracted(reason=f"generator: the golden uses {sorted(missing)[0]}, not written as an input file")
    return out


class _FoldCasts(ast.NodeTransformer):
    """`int(1024)`, `len([4, 8])` inside an expression: the constant (no builtin reaches the evaluation)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("int", "float", "len", "bool"):
            value = _const_or_none(node)
            if isinstance(value, (int, float)):
                return ast.Constant(value=value)
        return node


def _checked(expression: ast.AST, leaves: set[str], aliases: set[str]) -> tuple[str, str]:
    """(expression as numpy source with `np`, "") when every node is allow-listed, else ("", why not)."""
    marks = [n.id for n in ast.walk(expression) if isinstance(n, ast.Name) and n.id.startswith(_UNKNOWN_PREFIX)]
    if marks:
        return "", f"the golden depends on a value {marks[0].removeprefix(_UNKNOWN_PREFIX)}"
    renamed = _Subst({a: ast.Name(id="np", ctx=ast.Load()) for a in aliases}, frozenset()).visit(expression)
    renamed = _FoldCasts().visit(renamed)
    why = check_allowed(renamed, leaves)
    if why:
        return "", why
    text = ast.unparse(renamed)
    if len(text) > 2000:
        return "", "the golden expression is longer than 2000 characters"
    return text, ""


_OK_NODES = (
    ast.Expression,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.Call,
    ast.keyword,
    ast.Attribute,
    ast.Name,
    ast.Constant,
    ast.Tuple,
    ast.List,
    ast.Subscript,
    ast.Slice,
    ast.Load,
    ast.operator,
    ast.unaryop,
    ast.cmpop,
)


def check_allowed(expression: ast.AST, leaves: set[str]) -> str:
    """Why an expression is not allowed ("" when it is): only inputs, `np`, allow-listed numpy calls, ndarray
    methods and attributes, numbers and small strings (dtype names, einsum subscripts)."""
    ok = allowed()
    for node in ast.walk(expression):
        if not isinstance(node, _OK_NODES):
            return f"the golden expression uses {type(node).__name__}, which the allow-list does not accept"
        if isinstance(node, ast.Name) and node.id != "np" and node.id not in leaves:
            return f"the golden uses {node.id}, not written as an input file"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 40:
            return "the golden expression holds a long string"
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "np":
                if node.attr not in ok["functions"] | ok["names"]:
                    return f"np.{node.attr} is not on the allow-list"
            elif node.attr.startswith("_") or node.attr not in ok["methods"] | ok["attributes"]:
                return f".{node.attr} is not on the allow-list"
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "np":
                if func.attr not in ok["functions"] | ok["names"]:  # np.float32(v): a scalar cast
                    return f"np.{func.attr}() is not on the allow-list"
            elif isinstance(func, ast.Attribute):
                if func.attr not in ok["methods"]:
                    return f".{func.attr}() is not on the allow-list"
            else:
                return f"the call {ast.unparse(func)[:40]}() is not on the allow-list"
    return ""


# -- program mode: the generator's own golden computation, sliced, when it is no single expression ------------------
# A golden filled in a loop, under a data-dependent condition or changed in place is no numpy expression, but it is
# still the generator's own code path. Program mode keeps the statements the golden depends on (a backward slice),
# with the input arrays loaded from the files the generator wrote instead of drawn at random, and checks every node
# against the same allow-list plus plain control flow; the gate then runs it in the sandbox and keeps it only if it
# reproduces the golden. Nothing is vectorised by guesswork.

_PROGRAM_BUILTINS = frozenset(
    {"range", "len", "enumerate", "zip", "int", "float", "bool", "min", "max", "abs", "round", "list", "tuple", "sum"}
    | {"ValueError", "RuntimeError", "Exception"}  # only to raise: a failed check ends the run, the gate fails
)
_PROGRAM_NODES = _OK_NODES + (
    ast.Module,
    ast.FunctionDef,
    ast.arguments,
    ast.arg,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.For,
    ast.If,
    ast.Return,
    ast.Expr,
    ast.Pass,
    ast.Break,
    ast.Continue,
    ast.Raise,
    ast.Store,
    ast.Del,
    ast.BoolOp,
    ast.boolop,
    ast.IfExp,
    ast.ListComp,
    ast.comprehension,
    ast.Starred,
)
_RESULT = "__golden__"
_INPUTS = "__inputs__"
_MAX_PROGRAM_CHARS = 6000


@dataclass
class Program:
    """A sliced generator per golden: each program defines `__golden__` from `__inputs__[name]`; or why not."""

    inputs: dict[str, str] = field(default_factory=dict)  # file -> array name
    goldens: dict[str, str] = field(default_factory=dict)  # the golden's file -> the program that makes it
    line: int = 0
    reason: str = ""


def _names_read(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _names_written(node: ast.AST) -> set[str]:
    return _assigned_names([node]) if isinstance(node, ast.stmt) else set()


def _tofile(stmt: ast.stmt) -> tuple[ast.AST, str, int] | None:
    """(what is written, path, line) of a top-level `X.tofile(path)` / `X.reshape(-1).tofile(path)` statement."""
    if (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and stmt.value.func.attr == "tofile"
        and stmt.value.args
    ):
        path = _path_text(stmt.value.args[0], {})
        if path is not None:
            return stmt.value.func.value, _norm(path), stmt.lineno
    return None


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(id=self.names.get(node.id, node.id), ctx=node.ctx)


def _flatten(
    stmts: list[ast.stmt],
    functions: dict[str, ast.FunctionDef],
    env: dict[str, ast.AST],
    consts: dict[str, ast.AST],
    depth: int = 0,
) -> list[ast.stmt] | None:
    """The main path as one statement list. `env` holds the command line (sys.argv, argparse results) and is
    substituted into every statement; `consts` holds names bound to constants so far, so an `if` on them keeps only
    its branch (the scenario switch of a sample). A call statement of a module function with no `return` is replaced
    by its body (`gen_golden_data()` in `__main__`, and the calls it makes in turn, a few levels deep): a parameter
    passed a plain name is that name (the function fills the caller's array in place), others are assigned. The slice
    and the gate decide whether the result still computes the golden."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        stmt = _Subst(env, frozenset()).visit(copy.deepcopy(stmt))
        if isinstance(stmt, ast.If):
            try:
                test = _const(_Subst(consts, frozenset()).visit(copy.deepcopy(stmt.test)))
            except _Unresolvable:
                pass
            else:
                branch = _flatten(stmt.body if test else stmt.orelse, functions, env, consts, depth)
                if branch is None:
                    return None
                out += branch
                continue
        call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
        fn = functions.get(call.func.id) if call is not None and isinstance(call.func, ast.Name) else None
        if fn is None or depth >= _MAX_INLINE_DEPTH:
            out.append(stmt)
            for name in _assigned_names([stmt]):
                consts.pop(name, None)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                value = _const_or_none(_Subst(consts, frozenset()).visit(copy.deepcopy(stmt.value)))
                if isinstance(value, (int, float, str, bool)):
                    consts[stmt.targets[0].id] = ast.Constant(value=value)
            continue
        if any(isinstance(n, ast.Return) for n in ast.walk(fn)) or fn.args.vararg or fn.args.kwarg:
            return None
        params = fn.args.args
        defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
        given = dict(zip([p.arg for p in params], call.args, strict=False))
        given |= {k.arg: k.value for k in call.keywords if k.arg}
        rebound = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        renames, assigns = {}, []
        for p, d in zip(params, defaults, strict=True):
            value = given.get(p.arg, d)
            if value is None:
                return None
            if isinstance(value, ast.Name) and p.arg not in rebound:
                renames[p.arg] = value.id
            else:
                assigns.append(ast.Assign(targets=[ast.Name(id=p.arg, ctx=ast.Store())], value=value, lineno=fn.lineno))
        body = [_Rename(renames).visit(copy.deepcopy(b)) for b in fn.body]
        flat = _flatten(assigns + body, functions, env, consts, depth + 1)
        if flat is None:
            return None
        out += flat
    return out


def _command_line(module: ast.Module, argv: list[str] | None) -> dict[str, ast.AST]:
    """The command line the harness runs the generator with, as constants: `sys.argv` and the options an argparse
    result holds (`args.mode`)."""
    if argv is None:
        return {}
    env: dict[str, ast.AST] = {_ARGV: ast.List(elts=[ast.Constant(value=a) for a in argv], ctx=ast.Load())}
    calls = [n for n in ast.walk(module) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    options = [_option(n, {}) for n in calls if n.func.attr == "add_argument"]
    parsed = _parse_argv(options, list(argv[1:])) if options else None
    if parsed is not None:
        namespace = ast.Dict(
            keys=[ast.Constant(value=k) for k in parsed], values=[ast.Constant(value=v) for v in parsed.values()]
        )
        for stmt in ast.walk(module):
            if isinstance(stmt, ast.Assign) and _is_parse_args(stmt.value):
                env |= {_NS + t.id: namespace for t in stmt.targets if isinstance(t, ast.Name)}
    return env


def extract_program(source: str, argv: list[str] | None = None) -> Program:
    """The generator's statements the golden depends on, as a program over its input files (unchecked: the gate).
    `argv`: sys.argv as the harness runs the generator (script name first), when known."""
    module = _parse(source)
    if module is None:
        return Program(reason=NOT_PYTHON)
    functions = {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}
    main_block: list[ast.stmt] = []
    top: list[ast.stmt] = []
    for stmt in module.body:
        if isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test):
            main_block = stmt.body
        elif not isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom)):
            top.append(stmt)
    flat = _flatten(top + main_block, functions, _command_line(module, argv), {})
    if flat is None:
        return Program(reason="program: the golden is made in a function that returns or takes unknown arguments")
    writes = [(i, w) for i, s in enumerate(flat) if (w := _tofile(s))]
    # an input is an array written outside output/, bare or cast (`x.astype(dtype).tofile(...)`): the program gets the
    # file's content under its name (if the cast changed the values the golden was made from, the gate says so)
    inputs, written_at = {}, {}
    for i, (x, path, _) in writes:
        if _is_golden_path(path):
            continue
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr == "astype":
            x = x.func.value
        if isinstance(x, ast.Name):
            inputs[path] = x.id
            written_at[x.id] = i
    leaves = set(inputs.values())
    goldens = [(i, x, path, line) for i, (x, path, line) in writes if _is_golden_path(path)]
    if not goldens:
        return Program(reason="program: no golden written at the top level of the generator")
    modules = {
        a.asname or a.name.partition(".")[0] for n in ast.walk(module) if isinstance(n, ast.Import) for a in n.names
    }
    aliases = _numpy_aliases(module)
    out = Program(line=goldens[0][3])
    for at, receiver, path, _ in goldens:
        # backward slice from the golden; an input's assignments before its tofile are dropped (its value is the
        # file's), later ones are kept (`x = x.astype(np.float32)` after writing x)
        needed, kept = _names_read(receiver), []
        for k in range(at - 1, -1, -1):
            stmt = flat[k]
            if _tofile(stmt) or isinstance(stmt, (ast.Import, ast.ImportFrom)):
                continue
            written = _names_written(stmt) - modules
            if written and written <= leaves and all(k < written_at[n] for n in written):
                continue
            if written & needed:
                kept.append(stmt)
                needed |= _names_read(stmt) | (written if isinstance(stmt, (ast.For, ast.If)) else set())
        kept.reverse()
        if any(written_at[name] > at for name in leaves & needed):
            return Program(reason="program: an input the golden uses is written after it")
        called: set[str] = set()
        todo = [n for s in kept for n in _names_read(s) if n in functions] + [
            n for n in _names_read(receiver) if n in functions
        ]
        while todo:
            name = todo.pop()
            if name not in called:
                called.add(name)
                todo += [n for n in _names_read(functions[name]) if n in functions]
        body: list[ast.stmt] = [functions[n] for n in sorted(called, key=lambda n: functions[n].lineno)]
        body += [
            ast.Assign(
                targets=[ast.Name(id=name, ctx=ast.Store())],
                value=ast.Subscript(value=ast.Name(id=_INPUTS, ctx=ast.Load()), slice=ast.Constant(value=name)),
            )
            for name in sorted(leaves & needed)
        ]
        body += kept
        body.append(ast.Assign(targets=[ast.Name(id=_RESULT, ctx=ast.Store())], value=receiver))
        program = ast.Module(body=body, type_ignores=[])
        numpy = {a: ast.Name(id="np", ctx=ast.Load()) for a in aliases if a != "np"}
        program = _Subst(numpy, frozenset()).visit(program)
        ast.fix_missing_locations(program)
        why = check_program(program, set(functions))
        if why:
            return Program(reason=f"program: {why}")
        text = ast.unparse(program)
        if len(text) > _MAX_PROGRAM_CHARS:
            return Program(reason=f"program: longer than {_MAX_PROGRAM_CHARS} characters")
        out.goldens[path] = text
        out.inputs |= {p: n for p, n in inputs.items() if n in needed}
    return out


def check_program(program: ast.Module, functions: set[str]) -> str:
    """Why a sliced program is not allowed ("" when it is): the expression allow-list, plus assignments, `for`, `if`
    and the generator's own helper functions; no import, while, try, with, lambda, class, global, attribute store,
    dunder name, or builtin other than a few pure ones."""
    ok = allowed()
    for node in ast.walk(program):
        if not isinstance(node, _PROGRAM_NODES):
            return f"uses {type(node).__name__}, which the allow-list does not accept"
        if isinstance(node, ast.FunctionDef) and (node.decorator_list or node.name.startswith("_")):
            return f"function {node.name} is decorated or private"
        if isinstance(node, ast.Name) and node.id.startswith("__") and node.id not in (_INPUTS, _RESULT):
            return f"uses the name {node.id}"
        if isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                return "sets an attribute"
            if isinstance(node.value, ast.Name) and node.value.id == "np":
                if node.attr not in ok["functions"] | ok["names"]:
                    return f"np.{node.attr} is not on the allow-list"
            elif node.attr.startswith("_") or node.attr not in ok["methods"] | ok["attributes"]:
                return f".{node.attr} is not on the allow-list"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 40:
            return "holds a long string"
        if isinstance(node, ast.Call):
            func = node.func
            if not isinstance(func, (ast.Name, ast.Attribute)):  # `[f][0](...)`: only named calls are checked
                return "calls something other than a named function or method"
            if isinstance(func, ast.Name) and func.id not in _PROGRAM_BUILTINS and func.id not in functions:
                return f"the call {func.id}() is not on the allow-list"
            if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "np"):
                if func.attr not in ok["methods"]:
                    return f".{func.attr}() is not on the allow-list"
    return ""
