"""The push stage: publishable rows -> parquet shards + dataset card (+ recipe) -> a local folder or the Hub."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import records
from ..stages.base import DRIVER, Stage
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store
from . import card, licenses, rows, select, shards
from .config import PushConfig
from .hub_failures import hub_failure_line, is_hub_failure

__all__ = ["PushConfig", "PushError", "PushStage", "run"]


class PushError(RuntimeError):
    """Bad push settings (the message says which)."""


# Written into every local dataset folder push creates: only a folder carrying it (or an empty one) is ever replaced,
# so `--local-dir ~/work` cannot wipe a user's own files.
MARKER = ".cotbuilder-dataset"


def check_replaceable(target: Path) -> None:
    """Refuse a --local-dir that holds anything push did not write."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise PushError(f"--local-dir {target} exists and is not a folder: give a new or empty folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise PushError(
            f"--local-dir {target} is not empty and was not written by cotbuilder push (no {MARKER} "
            f"file): refusing to replace it; give a new or empty folder"
        )


def replace_folder(built: Path, target: Path) -> None:
    """Put `built` where `target` is: the old dataset folder moves aside first and is deleted only after the swap."""
    old = None
    if target.exists():
        check_replaceable(target)  # again: the folder may have changed while the shards were written
        old = target.with_name(f".push-old-{uuid.uuid4().hex[:12]}")
        target.rename(old)
    built.rename(target)
    if old is not None:
        shutil.rmtree(old)


@dataclass
class PushItem:
    rows: list[dict[str, Any]]
    dropped: dict[str, int]  # units left out, by reason (select.DROP_REASONS)
    dropped_samples: dict[str, int]  # accepted annotations of published units left out, by reason
    stage_counts: list[tuple[str, str]]  # the store's counts the card shows (read in plan: work has no store)
    provenance: dict[str, Any]  # crawled sources and checked benchmarks with their commits (card.provenance)
    folder: Path  # where the shards are built (a sibling of --local-dir, or a temp dir for the Hub)


@dataclass
class PushResult:
    folder: Path
    rows: int
    shards: int
    url: str | None


def left_out_lines(dropped: dict[str, int], dropped_samples: dict[str, int]) -> list[str]:
    """One line per reason anything was left out (units, then samples of published units), with its count."""
    lines = [f"left out {n} unit(s): {select.reason_line(k)}" for k, n in dropped.items() if n]
    lines += [f"left out {n} sample(s): {select.reason_line(k)}" for k, n in dropped_samples.items() if n]
    return lines


def select_rows(
    store: Store, config: PushConfig, stats: StageStats
) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, int]]:
    """The publishable rows, each checked against the dataset row schema; refuses when there is nothing to publish
    (saying, one line per reason, what was left out)."""
    select.check_fresh(store)
    allowed = licenses.allowlist(config.licenses, config.allow_cann_license)
    picked, dropped = select.publishable(store, allowed, allow_near=config.allow_near, langs=config.lang or None)
    data, dropped_samples = rows.build_rows(store, picked, config.format, config.samples, config.repairs)
    if config.docs:
        docs, dropped_docs = rows.doc_rows(store, config.format, allowed)
        data += docs
        for reason, n in dropped_docs.items():
            dropped_samples[reason] = dropped_samples.get(reason, 0) + n
    for reason, n in [*dropped.items(), *dropped_samples.items()]:
        if n:
            stats.skip(select.REASONS[reason][0], n)
    # Columns only some kinds of row have (repair, source_url): every row gets them (null) when any row has them,
    # since a parquet table takes its columns from the rows (pyarrow's from_pylist reads the first row's keys).
    optional = {k for row in data for k in row} & set(rows.KIND_COLUMNS)
    for row in data:
        for key in optional:
            row.setdefault(key, None)
    for row in data:
        try:
            records.validate("dataset_row", row)
        except records.RecordError as exc:
            raise select.RefusedError(
                f"row {row['id'][:12]} ({row['name']}) fails schemas/dataset_row.schema.json: {exc}"
            ) from exc
    if not data:
        raise select.RefusedError(
            "\n".join(
                [
                    "nothing to publish: no unit is verified, annotated, a cluster representative, clean and under an "
                    "allowed licence"
                ]
                + left_out_lines(dropped, dropped_samples)
            )
        )
    return data, dropped, dropped_samples


def build_folder(item: PushItem, config: PushConfig) -> int:
    """Write shards, card and recipe into `item.folder`; return the number of shards."""
    folder, data = item.folder, item.rows
    splits = [shards.split_of(r["dedup"]["cluster_id"], config.test_fraction) for r in data]
    shard_paths, schema, nbytes = shards.write_shards(data, splits, folder, config.format, config.rows_per_shard)
    recipe_name = None
    if config.recipe:
        recipe_name = "recipe.toml"
        shutil.copyfile(config.recipe, folder / recipe_name)
    split_rows = {s: splits.count(s) for s in shard_paths}
    meta = card.metadata(data, config.format, split_rows, card.features_of(schema), nbytes)
    (folder / "README.md").write_text(
        card.render(
            item.stage_counts,
            data,
            meta,
            item.dropped,
            config.format,
            recipe_name,
            dropped_samples=item.dropped_samples,
            provenance=item.provenance,
            split_rows=split_rows,
        ),
        encoding="utf-8",
    )
    return sum(len(p) for p in shard_paths.values())


class PushStage(Stage[PushConfig, PushItem, PushResult]):
    """plan: the publishable rows (refuses stale or missing dedup/decontaminate results); work: shards, card and
    recipe in a fresh folder, then the swap into --local-dir or the upload to the Hub; commit: counts only (push
    writes no table). It runs beside the driver: the folder it builds is the driver's to move."""

    name = "push"
    config_type = PushConfig
    mode = DRIVER
    isolate_failures = False  # all or nothing: a failed upload ends the run
    refusals = (select.RefusedError, PushError)

    def check(self) -> None:
        config = self.config
        if bool(config.repo_id) == bool(config.local_dir):
            raise PushError("give exactly one of --repo-id ORG/NAME or --local-dir DIR")
        if config.format not in rows.FORMATS:
            raise PushError(f"--format must be one of {', '.join(rows.FORMATS)}")
        if config.samples not in rows.SAMPLES:
            raise PushError(f"--samples must be one of {', '.join(rows.SAMPLES)}, not {config.samples!r}")
        bad = [x for x in config.lang if x not in ("en", "zh")]
        if bad:
            raise PushError(f"--lang must be en or zh, not {', '.join(bad)}")
        if not 0.0 <= config.test_fraction <= 0.5:
            raise PushError("--test-fraction must be between 0 and 0.5")
        if config.recipe and not Path(config.recipe).is_file():
            raise PushError(f"recipe {config.recipe} does not exist")
        if config.local_dir:
            check_replaceable(Path(config.local_dir).absolute())

    def plan(self, store: Store, stats: StageStats) -> list[PushItem]:
        data, dropped, dropped_samples = select_rows(store, self.config, stats)
        if self.config.local_dir:
            target = Path(self.config.local_dir).absolute()
            target.parent.mkdir(parents=True, exist_ok=True)
            # A sibling of the target (same file system, so the final rename is atomic), made with mkdir so its mode
            # follows the umask like any folder the user creates (mkdtemp would leave it 0700).
            folder = target.parent / f".push-{uuid.uuid4().hex[:12]}"
        else:
            folder = Path(tempfile.gettempdir()) / f"cotbuilder-push-{uuid.uuid4().hex[:12]}"
        self._left_out = left_out_lines(dropped, dropped_samples)
        return [PushItem(data, dropped, dropped_samples, card.stage_counts(store), card.provenance(store), folder)]

    def work(self, item: PushItem) -> PushResult:
        config = self.config
        item.folder.mkdir()
        try:
            n_shards = build_folder(item, config)
            url = None
            if config.local_dir:
                (item.folder / MARKER).write_text(
                    "Written by `cotbuilder push`; a later push replaces this whole folder.\n", encoding="utf-8"
                )
                replace_folder(item.folder, Path(config.local_dir).absolute())
            else:
                from .hub import upload_folder

                url = upload_folder(
                    item.folder,
                    config.repo_id,
                    private=config.private,
                    revision=config.revision,
                    message=f"Upload {len(item.rows)} rows ({config.format}) built by cotbuilder",
                )
        finally:
            shutil.rmtree(item.folder, ignore_errors=True)
        return PushResult(item.folder, len(item.rows), n_shards, url)

    def commit(self, store: Store, results: list[PushResult], stats: StageStats) -> None:
        for r in results:
            stats.kept(r.rows)
            stats.add("shards", r.shards)
            if r.url:
                stats.config["commit_url"] = r.url

    def explain_failure(self, exc: BaseException) -> str | None:
        if not self.config.repo_id or not is_hub_failure(exc):
            return None
        return hub_failure_line(exc, self.config.repo_id)

    def closing_lines(self, stats: StageStats) -> list[str]:
        where = self.config.local_dir or f"https://huggingface.co/datasets/{self.config.repo_id}"
        return [*getattr(self, "_left_out", []), f"published {stats.counts['kept']} rows to {where}"]


def run(store: Store, config: PushConfig | None = None) -> StageStats:
    """Publish from this process (library and test use); the CLI goes through the same stage."""
    return run_stage(PushStage(config or PushConfig()), store)
