"""Upload a built dataset folder to the Hugging Face Hub: create the repo, preupload the shards, one commit.

The token comes from HF_TOKEN or the huggingface login (huggingface_hub resolves both); it is never printed or stored.
A commit that loses a race (HTTP 409/412: the branch moved) is retried a bounded number of times on the new head.
"""

from __future__ import annotations

import time
from pathlib import Path

COMMIT_RETRIES = 3


def upload_folder(folder: Path, repo_id: str, *, private: bool = False, revision: str | None = None,
                  message: str = "Upload dataset built by cotbuilder") -> str:
    """Upload every file under `folder`; return the commit URL."""
    from huggingface_hub import CommitOperationAdd, HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    if revision and revision != "main":
        api.create_branch(repo_id, repo_type="dataset", branch=revision, exist_ok=True)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    operations = [CommitOperationAdd(path_in_repo=p.relative_to(folder).as_posix(), path_or_fileobj=str(p))
                  for p in files]
    # Shards go up before the commit; the commit then only references them (one commit for the whole dataset).
    api.preupload_lfs_files(repo_id, additions=operations, repo_type="dataset", revision=revision)
    for attempt in range(COMMIT_RETRIES + 1):
        try:
            info = api.create_commit(repo_id, operations=operations, commit_message=message, repo_type="dataset",
                                     revision=revision)
            return info.commit_url
        except HfHubHTTPError as exc:
            status = getattr(exc.response, "status_code", None)
            if status not in (409, 412) or attempt == COMMIT_RETRIES:
                raise
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")
