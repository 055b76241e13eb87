"""Hostile units go through `cotbuilder verify` like any other: each is stopped, recorded with the way it was stopped,
and the batch goes on (a good unit in the same run still passes, exit status 0)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from .conftest import copy_fixture
from .unitdir import add_units, unit_from_dir

HOSTILE_MAINS = {
    "infinite_loop": "int main() { volatile unsigned long n = 0; for (;;) { n++; } }\n",
    "giant_allocation": "#include <vector>\nint main() { std::vector<char> v(64ull << 30, 1); return v[7]; }\n",
    # bounded even without a process limit: at most 2^9 processes, each gone within 2 s
    "fork_bomb": (
        "#include <cstdio>\n#include <unistd.h>\nint main() {\n"
        '  for (int i = 0; i < 9; i++) { if (fork() < 0) { perror("fork"); return 1; } }\n'
        "  sleep(2);\n  return 0;\n}\n"
    ),
    "write_home": (
        '#include <cstdio>\nint main() {\n  FILE* f = std::fopen("HOME_TARGET", "w");\n'
        '  if (!f) { std::perror("fopen HOME_TARGET"); return 1; }\n'
        '  std::fputs("escaped", f);\n  std::fclose(f);\n  return 0;\n}\n'
    ),
    "open_socket": (
        "#include <arpa/inet.h>\n#include <cstdio>\n#include <sys/socket.h>\n#include <unistd.h>\n"
        "int main() {\n  int s = socket(AF_INET, SOCK_STREAM, 0);\n  sockaddr_in a{};\n"
        "  a.sin_family = AF_INET;\n  a.sin_port = htons(PORT);\n"
        '  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);\n'
        '  if (connect(s, (sockaddr*)&a, sizeof a) != 0) { perror("connect"); return 1; }\n'
        "  close(s);\n  return 0;\n}\n"
    ),
}
EXPECTED = {
    "infinite_loop": ("timeout", "CPU-time limit"),
    "giant_allocation": ("failed_run", "memory limit"),
    "fork_bomb": ("sandbox_violation", "process limit"),
    "write_home": ("sandbox_violation", "write outside sandbox"),
    "open_socket": ("sandbox_violation", "network access"),
    "tiny_add": ("passed", None),
}


def test_hostile_units_are_stopped_recorded_and_the_run_goes_on(cli, verify_workspace, tmp_path):
    home_target = Path(os.path.expanduser("~")) / f"cotbuilder-escape-{os.getpid()}"
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    units = [unit_from_dir(copy_fixture("tiny_add", tmp_path / "tiny_add"))]
    for name, code in HOSTILE_MAINS.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "main.cpp").write_text(code.replace("HOME_TARGET", str(home_target)).replace("PORT", str(port)))
        units.append(unit_from_dir(folder))
    add_units(verify_workspace, *units)
    try:
        done = cli(
            "verify",
            "--jobs",
            "2",
            "--cpu-seconds",
            "2",
            "--wall-seconds",
            "10",
            "--memory-mb",
            "1024",
            workspace=verify_workspace,
            timeout=300,
        )
        server.setblocking(False)
        try:
            server.accept()
            reached = True
        except BlockingIOError:
            reached = False
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    assert not reached and not home_target.exists()
    rows = cli(
        "query",
        "--json",
        "SELECT u.name, v.status, v.reason FROM verifications v JOIN units u USING (unit_id)",
        workspace=verify_workspace,
    )
    got = {r["name"]: r for r in map(json.loads, rows.stdout.splitlines())}
    for name, (status, reason) in EXPECTED.items():
        assert got[name]["status"] == status, got[name]
        if reason:
            assert reason in got[name]["reason"], got[name]
