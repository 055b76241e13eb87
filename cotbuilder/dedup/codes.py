"""What each unit is compared by: its device code (the host side is mostly op-definition boilerplate that every op
shares), or its host code when it has no device code. Read for every unit at once, in bulk, and handed to the
processes that sign them through one file (`CodeFile`) rather than pickled to each.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import pyarrow as pa

if TYPE_CHECKING:
    from ..store import Store

# A code of Python white space only (str.strip() leaves nothing): Rust's \s is Unicode White_Space, which with the
# four information separators is exactly the set of str.isspace().
_BLANK = r"^[\s\x1c-\x1f]*$"
_DIGEST_SEED = 0x636F64  # polars' string hash of each code: what stands for the code in dedup's input hash


def unit_code(unit: dict[str, Any]) -> str:
    """The code one unit record is compared by (`read` gives the same for every unit of a store)."""
    return unit["kernel_code"] if unit["kernel_code"].strip() else unit["host_code"]


def digests(codes: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A 64-bit hash of each code (polars' string hash: a new polars version may change it, then one run of dedup
    redoes its work)."""
    return pl.from_arrow(codes).hash(_DIGEST_SEED).to_numpy()


@dataclass
class Codes:
    """Every unit's code, in the order the store returned them (its scan order: sorting 500 MB of text by unit_id
    would cost as much as reading it), and the unit_id order over them."""

    unit_ids: list[str]  # every unit, in unit_id order
    order: np.ndarray  # int64: order[i] is the row in `codes` of unit_ids[i]
    codes: pa.ChunkedArray  # string: each unit's code, in scan order
    digests: np.ndarray  # uint64: `digests(codes)`, in scan order


def read(store: Store) -> Codes:
    """Every unit's code. One query, kept as the Arrow buffers DuckDB hands out: at 100k units the codes are ~500 MB,
    and a dict per unit or a Python string per code would cost more than signing them."""
    table = store.arrow("SELECT unit_id, kernel_code AS code FROM units")
    ids = pl.from_arrow(table.select(["unit_id"]))["unit_id"]
    codes = table.column("code")
    blank = pl.from_arrow(codes).str.contains(_BLANK)
    if blank.any():  # rare: units with host code only (the codes are copied once, into one large_string array)
        host = pl.from_arrow(
            store.arrow(
                "SELECT unit_id, host_code FROM units WHERE unit_id IN (SELECT unnest(?))",
                [ids.filter(blank).to_list()],
            )
        )
        frame = pl.DataFrame({"unit_id": ids, "code": pl.from_arrow(codes), "blank": blank})
        frame = frame.join(host, on="unit_id", how="left", maintain_order="left")
        code = frame.select(pl.when(pl.col("blank")).then(pl.col("host_code")).otherwise(pl.col("code")))
        codes = pa.chunked_array([code.to_series().to_arrow(compat_level=pl.CompatLevel.oldest())])
    order = ids.arg_sort().to_numpy().astype(np.int64)
    return Codes(ids.gather(order).to_list(), order, codes, digests(codes))


class CodeFileError(RuntimeError):
    """A worker cannot read the codes it was given to sign, or they are not the ones planned."""


@dataclass(frozen=True)
class CodeSlice:
    """One shard's codes as a worker finds them: record batch `batch` of the run's code file, which must hash to
    `digests` (so a worker signs exactly the codes the run's input hash stands for, or fails saying why)."""

    path: str
    batch: int
    digests: np.ndarray

    def __len__(self) -> int:
        return len(self.digests)

    def read(self) -> pa.Array:
        import pyarrow.ipc as ipc

        _wait_whole(Path(self.path))
        try:
            # Read, not memory-mapped: a file cut short raises here instead of killing the worker with SIGBUS.
            with pa.OSFile(self.path) as f:
                reader = ipc.open_file(f)
                if self.batch >= reader.num_record_batches:
                    raise CodeFileError(
                        f"dedup's code file {self.path} has {reader.num_record_batches} shards, not {self.batch + 1}: "
                        "it is damaged or from another run"
                    )
                codes = reader.get_batch(self.batch).column(0)
        except FileNotFoundError:
            raise _missing(self.path) from None
        except (pa.ArrowInvalid, OSError) as exc:
            raise CodeFileError(f"dedup's code file {self.path} cannot be read ({exc}): it is damaged") from None
        if len(codes) != len(self.digests) or not _offsets_fit(codes) or (digests(codes) != self.digests).any():
            raise CodeFileError(
                f"shard {self.batch} of dedup's code file {self.path} does not hold the codes planned for it: the "
                "file was changed or damaged after the run wrote it"
            )
        return codes


def _offsets_fit(codes: pa.Array) -> bool:
    """A string array whose offsets ascend and stay inside its data (Arrow's IPC reader does not check them, and
    what reads past them next could crash the worker rather than say that the file is damaged)."""
    if not (pa.types.is_string(codes.type) or pa.types.is_large_string(codes.type)):
        return False
    if not len(codes):
        return True
    width = np.int64 if pa.types.is_large_string(codes.type) else np.int32
    offsets = np.frombuffer(codes.buffers()[1], dtype=width)[codes.offset : codes.offset + len(codes) + 1]
    data = codes.buffers()[2]
    size = data.size if data is not None else 0
    return (
        len(offsets) == len(codes) + 1
        and bool(offsets[0] >= 0 and (np.diff(offsets) >= 0).all())
        and (int(offsets[-1]) <= size)
    )


def write_file(path: Path, codes: pa.ChunkedArray, shard_size: int) -> None:
    """Write `codes` to `path` as an Arrow IPC file of one record batch per shard of `shard_size` codes (a shard is
    then read alone, without the rest). The batches are the store's own buffers, cut at shard bounds: no code is
    copied in memory on the way."""
    import pyarrow.ipc as ipc

    with pa.OSFile(str(path), "wb") as f, ipc.new_file(f, pa.schema([("code", codes.type)])) as writer:
        for start in range(0, len(codes), shard_size):
            part = codes.slice(start, shard_size)
            chunk = part.chunks[0] if part.num_chunks == 1 else pa.concat_arrays(part.chunks)
            writer.write_batch(pa.record_batch([chunk], names=["code"]))


class CodeFile:
    """A run's code file, written by a thread of the driver while the pool's workers start (~1 s of imports each):
    the shards are handed out at once and a worker that reaches its shard first waits for the file. The file appears
    under its name only whole (written as <name>.part, then renamed); a write that fails leaves <name>.failed saying
    why, so no worker waits for a file that will not come."""

    def __init__(self, path: Path, codes: pa.ChunkedArray, digests_: np.ndarray, shard_size: int):
        self.path = path
        starts = range(0, len(codes), shard_size)
        self.slices = [CodeSlice(str(path), k, digests_[start : start + shard_size]) for k, start in enumerate(starts)]
        path.parent.mkdir(parents=True, exist_ok=True)
        _sibling(path, ".part").write_bytes(b"")  # there before the first worker looks: "being written"
        self._thread = threading.Thread(target=self._write, args=(codes, shard_size), name="dedup-codes", daemon=True)
        self._thread.start()

    def _write(self, codes: pa.ChunkedArray, shard_size: int) -> None:
        part = _sibling(self.path, ".part")
        try:
            write_file(part, codes, shard_size)
            os.replace(part, self.path)
        except BaseException as exc:  # noqa: BLE001 -- said to the workers, whose shards then fail with it
            _sibling(self.path, ".failed").write_text(f"{type(exc).__name__}: {exc}", encoding="utf-8")
            part.unlink(missing_ok=True)

    def wait(self) -> None:
        self._thread.join()

    def remove(self) -> None:
        self.wait()
        for path in (self.path, _sibling(self.path, ".part"), _sibling(self.path, ".failed")):
            path.unlink(missing_ok=True)


WAIT_S = 600.0  # how long a worker waits for the driver to finish writing the code file


def _missing(path: Path | str) -> CodeFileError:
    return CodeFileError(
        f"dedup's code file {path} is not there: the run that wrote it ended, or this worker does not see the "
        "workspace's cache folder (a Ray node needs it on a shared file system)"
    )


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _wait_whole(path: Path) -> None:
    """Return once `path` is there (whole: see CodeFile); raise CodeFileError when it will not come."""
    deadline = time.monotonic() + WAIT_S
    while not path.exists():
        failed = _sibling(path, ".failed")
        if failed.exists():
            reason = failed.read_text(encoding="utf-8", errors="replace")
            raise CodeFileError(f"the driver could not write dedup's code file {path}: {reason}")
        if not _sibling(path, ".part").exists() and not path.exists():
            raise _missing(path)
        if time.monotonic() > deadline:
            raise CodeFileError(f"dedup's code file {path} was still being written after {WAIT_S:.0f} s")
        time.sleep(0.01)
