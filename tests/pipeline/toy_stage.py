"""A toy stage in one file, as a newcomer would add one: its config (CLI options + recipe keys), the stage (plan, work,
commit) and a `status` section. `test_registry.py` registers it and finds it in the CLI, recipes, status and runner.

It hashes words: plan skips the words already hashed (content-hash keys: the one resume rule), work hashes one word
(in a pool process when jobs > 1), commit writes the rows into its own table.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from cotbuilder.stages.base import Stage, StageRefused
from cotbuilder.stages.options import list_option, option
from cotbuilder.stages.registry import StageEntry

TABLE = (
    "CREATE TABLE IF NOT EXISTS toy_words (word_hash VARCHAR PRIMARY KEY, word VARCHAR, rounds INTEGER, pid INTEGER)"
)


@dataclass
class ToyConfig:
    """Hash words into the toy_words table (a stage that exists for the registry's tests)."""

    words: list[str] = list_option("--word", help="A word to hash (repeatable).")
    rounds: int = option(3, "--rounds", min=1, help="sha256 rounds per word.")
    jobs: int = option(1, "--jobs", "-j", help="Words hashed at once (processes).")


def word_key(word: str, rounds: int) -> str:
    return hashlib.sha256(f"{rounds}\0{word}".encode()).hexdigest()


class ToyStage(Stage[ToyConfig, str, dict]):
    name = "toy"
    config_type = ToyConfig

    def check(self) -> None:
        if not self.config.words:
            raise StageRefused("nothing to hash: give --word WORD")

    def plan(self, store, stats) -> list[str]:
        done = (
            {r["word_hash"] for r in store.rows("SELECT word_hash FROM toy_words")}
            if store.has_table("toy_words")
            else ()
        )
        todo = []
        for word in dict.fromkeys(self.config.words):
            if word_key(word, self.config.rounds) in done:
                stats.skip("already hashed")
            else:
                todo.append(word)
        return todo

    def work(self, word: str) -> dict:
        digest = word.encode()
        for _ in range(self.config.rounds):
            digest = hashlib.sha256(digest).digest()
        return {
            "word_hash": word_key(word, self.config.rounds),
            "word": word,
            "rounds": self.config.rounds,
            "pid": os.getpid(),
        }

    def commit(self, store, results, stats) -> None:
        store.execute(TABLE)
        for row in results:
            store.execute("INSERT INTO toy_words VALUES (?, ?, ?, ?)", list(row.values()))
            stats.kept()


def status_section(store, console) -> None:
    n = store.scalar("SELECT count(*) FROM toy_words") if store.has_table("toy_words") else 0
    console.print(f"toy words hashed: {n}")


ENTRY = StageEntry("toy", ToyConfig, ToyStage, status_section)
