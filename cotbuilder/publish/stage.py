"""The push stage: publishable rows -> parquet shards + dataset card (+ recipe) -> a local folder or the Hub."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import records
from ..stats import StageStats, stage_run
from ..store import Store
from . import card, licenses, rows, select, shards


@dataclass
class PushConfig:
    repo_id: str | None = None  # ORG/NAME on the Hub
    local_dir: str | None = None  # or a local folder
    private: bool = False
    revision: str | None = None
    format: str = "messages"  # messages | alpaca | sharegpt
    licenses: list[str] | None = None  # allowlist (default: Apache-2.0, MIT, BSD-2-Clause, BSD-3-Clause)
    allow_cann_license: bool = False
    rows_per_shard: int = 5000
    recipe: str | None = None  # pipeline recipe to ship with the data (the runner passes its own)


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


def build_folder(store: Store, config: PushConfig, folder: Path, stats: StageStats) -> int:
    """Write shards, card and recipe into `folder`; return the number of rows."""
    select.check_fresh(store)
    allowed = licenses.allowlist(config.licenses, config.allow_cann_license)
    picked, dropped = select.publishable(store, allowed)
    for reason, n in dropped.items():
        if n:
            stats.skip(reason.replace("_", " "), n)
    data = rows.build_rows(store, picked, config.format)
    for row in data:
        try:
            records.validate("dataset_row", row)
        except records.RecordError as exc:
            raise select.RefusedError(
                f"row {row['id'][:12]} ({row['name']}) fails schemas/dataset_row.schema.json: {exc}"
            ) from exc
    if not data:
        raise select.RefusedError(
            "nothing to publish: no unit is verified, annotated, a cluster representative, "
            "clean and under an allowed licence (see the skipped counts)"
        )
    shard_paths, schema, nbytes = shards.write_shards(data, folder, config.format, config.rows_per_shard)
    recipe_name = None
    if config.recipe:
        recipe_name = "recipe.toml"
        shutil.copyfile(config.recipe, folder / recipe_name)
    meta = card.metadata(data, config.format, f"data/{config.format}/train-*.parquet", card.features_of(schema), nbytes)
    (folder / "README.md").write_text(
        card.render(store, data, meta, dropped, config.format, recipe_name), encoding="utf-8"
    )
    stats.kept(len(data))
    stats.add("shards", len(shard_paths))
    return len(data)


def run(store: Store, config: PushConfig | None = None) -> StageStats:
    config = config or PushConfig()
    if bool(config.repo_id) == bool(config.local_dir):
        raise PushError("give exactly one of --repo-id ORG/NAME or --local-dir DIR")
    if config.format not in rows.FORMATS:
        raise PushError(f"--format must be one of {', '.join(rows.FORMATS)}")
    if config.recipe and not Path(config.recipe).is_file():
        raise PushError(f"recipe {config.recipe} does not exist")
    if config.local_dir:
        target = Path(config.local_dir).absolute()
        check_replaceable(target)
        target.parent.mkdir(parents=True, exist_ok=True)
    with stage_run(store, "push", asdict(config)) as stats:
        if config.local_dir:
            # A sibling of the target (same file system, so the final rename is atomic), made with mkdir so its mode
            # follows the umask like any folder the user creates (mkdtemp would leave it 0700).
            tmp = target.parent / f".push-{uuid.uuid4().hex[:12]}"
            tmp.mkdir()
            try:
                build_folder(store, config, tmp, stats)
                (tmp / MARKER).write_text(
                    "Written by `cotbuilder push`; a later push replaces this whole folder.\n", encoding="utf-8"
                )
                replace_folder(tmp, target)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        else:
            from .hub import upload_folder

            with tempfile.TemporaryDirectory(prefix="cotbuilder-push-") as tmp:
                n = build_folder(store, config, Path(tmp), stats)
                url = upload_folder(
                    Path(tmp),
                    config.repo_id,
                    private=config.private,
                    revision=config.revision,
                    message=f"Upload {n} rows ({config.format}) built by cotbuilder",
                )
                stats.config["commit_url"] = url
    return stats
