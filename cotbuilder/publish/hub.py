"""Upload a built dataset folder to the Hugging Face Hub: create the repo, preupload the shards, one commit.

The token comes from HF_TOKEN or the huggingface login (huggingface_hub resolves both); it is never printed or stored.
A commit that loses a race (HTTP 409/412: the branch moved) is retried a bounded number of times on the new head.
The commit also deletes every file under data/ that the new dataset does not have: shard names carry the shard count
(train-00000-of-00002) and the format, so a push with fewer shards or another format would otherwise leave old rows
matched by the card's glob.
"""

from __future__ import annotations

import time
from pathlib import Path

COMMIT_RETRIES = 3
DATA_PREFIX = "data/"


def remote_files(api, repo_id: str, revision: str | None) -> list[str]:
    """The files on the branch now; none for a repo or branch that has no commit yet."""
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError

    try:
        return api.list_repo_files(repo_id, repo_type="dataset", revision=revision)
    except (RevisionNotFoundError, EntryNotFoundError, RepositoryNotFoundError):
        return []  # nothing to clean up (a real access problem surfaces at the commit)


def stale_data_files(remote: list[str], new: set[str]) -> list[str]:
    return sorted(p for p in remote if p.startswith(DATA_PREFIX) and p not in new)


def upload_folder(
    folder: Path,
    repo_id: str,
    *,
    private: bool = False,
    revision: str | None = None,
    message: str = "Upload dataset built by cotbuilder",
) -> str:
    """Upload every file under `folder`; return the commit URL."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    if revision and revision != "main":
        api.create_branch(repo_id, repo_type="dataset", branch=revision, exist_ok=True)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    operations = [
        CommitOperationAdd(path_in_repo=p.relative_to(folder).as_posix(), path_or_fileobj=str(p)) for p in files
    ]
    # Shards go up before the commit; the commit then only references them (one commit for the whole dataset).
    api.preupload_lfs_files(repo_id, additions=operations, repo_type="dataset", revision=revision)
    new_paths = {op.path_in_repo for op in operations}
    for attempt in range(COMMIT_RETRIES + 1):
        # listed on every attempt: a commit that lost a race retries against the branch as it is now
        deletions = [
            CommitOperationDelete(path_in_repo=p, is_folder=False)
            for p in stale_data_files(remote_files(api, repo_id, revision), new_paths)
        ]
        try:
            info = api.create_commit(
                repo_id,
                operations=[*operations, *deletions],
                commit_message=message,
                repo_type="dataset",
                revision=revision,
            )
            return info.commit_url
        except HfHubHTTPError as exc:
            status = getattr(exc.response, "status_code", None)
            if status not in (409, 412) or attempt == COMMIT_RETRIES:
                raise
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")
