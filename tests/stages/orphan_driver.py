"""A stage driver for test_executors.py to SIGKILL: runs a pool stage whose items sleep for two minutes."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stage_kit import KitConfig, ListedStage  # noqa: E402

from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

if __name__ == "__main__":  # pool processes import this file too (multiprocessing's forkserver does)
    workspace, pid_dir = sys.argv[1], sys.argv[2]
    with Store(workspace) as store:
        run_stage(ListedStage(KitConfig(jobs=2, pid_dir=pid_dir, sleep_s=120)), store)
