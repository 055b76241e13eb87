"""Hostile units go through `cotbuilder verify` like any other: each is stopped or judged by cotbuilder's own
comparison, recorded as the expected non-pass with its reason, nothing is written outside the sandbox, and the batch
goes on (a good unit in the same run still passes, exit status 0).

Most are built from the demo's own add_fp16 (examples/kernel_launch/add_fp16) with a small edit: a checker that lies, a
main that copies or overwrites the golden, a main that only prints, a NaN output under a NaN-blind checker, a unit that
rewrites its siblings' checkers through /proc, reads host secrets, connects to host UNIX sockets, forks a daemon or
allocates over the memory limit with several processes; a spec-harness unit leaves a symlinked input dir behind.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from .conftest import FIXTURES
from .unitdir import add_units, unit_from_dir

ADD = Path(__file__).resolve().parents[2] / "examples" / "kernel_launch" / "add_fp16"
AFTER_WRITE = 'WriteFile("./output/output_z.bin", z, zByteSize);'
BROKEN = ("add_fp16.cpp", "        Add(zLocal, xLocal, yLocal", "        Sub(zLocal, xLocal, yLocal")
LYING = 'print("test pass")\n'
NAN_BLIND = (
    "import sys\nimport numpy as np\n"
    "out = np.fromfile(sys.argv[1], dtype=np.float16).astype(np.float32)\n"
    "gold = np.fromfile(sys.argv[2], dtype=np.float16).astype(np.float32)\n"
    "bad = np.abs(out - gold) > 1e-3  # NaN compares False: a NaN output passes\n"
    'print("test fail" if bad.any() else "test pass")\nsys.exit(1 if bad.any() else 0)\n'
)
SLOW_GENERATOR = ("scripts/gen_data.py", "def main():\n", "def main():\n    import time\n    time.sleep(6)\n")


def _after_write(code: str) -> tuple[str, str, str]:
    return ("main.cpp", AFTER_WRITE, AFTER_WRITE + "\n" + code)


def _before_kernel(code: str) -> tuple[str, str, str]:
    return ("main.cpp", "    uint32_t blockDim = 8;", "    uint32_t blockDim = 8;\n" + code)


def _includes(*headers: str) -> tuple[str, str, str]:
    return ("main.cpp", "#include <cstring>\n", "#include <cstring>\n" + "".join(f"#include <{h}>\n" for h in headers))


def _add_variant(dest: Path, edits: list[tuple[str, str, str]], checker: str | None = None) -> Path:
    shutil.copytree(ADD, dest)
    for rel, old, new in edits:
        path = dest / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if checker is not None:
        (dest / "scripts" / "verify_result.py").write_text(checker, encoding="utf-8")
    return dest


PLAIN_MAINS = {
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
    "print_only_self_check": '#include <cstdio>\nint main() { std::puts("test pass"); return 0; }\n',
    # a credential in what a unit prints must not reach the store (nor a teacher, through annotate --repair)
    "prints_a_token": (
        '#include <cstdio>\nint main() { std::printf("HF_TOKEN=TOKEN\\n"); '
        'std::fprintf(stderr, "leaked TOKEN\\n"); return 1; }\n'
    ),
}

# name -> (status, words the reason must contain)
EXPECTED = {
    "infinite_loop": ("timeout", "CPU-time limit"),
    "giant_allocation": ("failed_run", "memory limit"),
    "fork_bomb": ("sandbox_violation", "process limit"),
    "write_home": ("sandbox_violation", "write outside sandbox"),
    "open_socket": ("sandbox_violation", "network access"),
    "print_only_self_check": ("unchecked", "no golden"),
    "prints_a_token": ("failed_run", "<REDACTED:"),
    "lying_checker": ("wrong_answer", "elements off"),
    "golden_copied_into_output": ("wrong_answer", "elements off"),
    "golden_overwritten": ("wrong_answer", "elements off"),
    "print_only_main": ("unchecked", "wrote no output file"),
    "nan_under_nan_blind_checker": ("wrong_answer", "elements off"),
    "aa_sibling_tamperer": ("failed_run", "exit status 1"),
    "aa_sibling_victim": ("wrong_answer", "elements off"),
    "symlinked_input_dir": ("sandbox_violation", "symlink"),
    "unix_socket_connect": ("sandbox_violation", "UNIX-domain socket"),
    "host_file_read": ("failed_run", "No such file or directory"),
    "memory_together": ("failed_run", "memory limit"),
    "forks_a_daemon": ("sandbox_violation", "process(es) running after it ended"),
    "tiny_add": ("passed", None),
}


@pytest.fixture
def host(tmp_path):
    """Things on the host a hostile unit goes for: a token under $HOME, a victim dir, a TCP and two UNIX servers."""
    token = Path.home() / f".cotbuilder-test-token-{os.getpid()}"
    token.write_text("hf_" + "q" * 34)
    victim = tmp_path / "victim"
    victim.mkdir()
    tcp = socket.create_server(("127.0.0.1", 0))
    unix_path = tmp_path / "host.sock"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(str(unix_path))
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(f"\0cotbuilder-hostile-{os.getpid()}")
    for s in (tcp, unix, abstract):
        s.listen()
        s.setblocking(False)
    yield {"token": token, "victim": victim, "tcp": tcp, "unix_path": unix_path, "servers": (tcp, unix, abstract)}
    token.unlink(missing_ok=True)
    for s in (tcp, unix, abstract):
        s.close()


def _units(tmp_path: Path, host: dict) -> list[dict]:
    home_target = Path.home() / f"cotbuilder-escape-{os.getpid()}"
    port = host["tcp"].getsockname()[1]
    units = [unit_from_dir(shutil.copytree(FIXTURES / "tiny_add", tmp_path / "tiny_add"))]
    for name, code in PLAIN_MAINS.items():
        folder = tmp_path / name
        folder.mkdir()
        code = code.replace("HOME_TARGET", str(home_target)).replace("PORT", str(port))
        (folder / "main.cpp").write_text(code.replace("TOKEN", host["token"].read_text()))
        units.append(unit_from_dir(folder))
    variants = {
        "lying_checker": ([BROKEN], LYING),
        "golden_copied_into_output": (
            [
                BROKEN,
                _after_write(
                    '    { size_t n = zByteSize; if (ReadFile("./output/golden.bin", n, z, zByteSize))'
                    ' WriteFile("./output/output_z.bin", z, zByteSize); }'
                ),
            ],
            None,
        ),
        "golden_overwritten": ([BROKEN, _after_write('    WriteFile("./output/golden.bin", z, zByteSize);')], None),
        "print_only_main": (
            [_before_kernel('    std::puts("test pass");\n    return 0;')],
            None,
        ),
        "nan_under_nan_blind_checker": (
            [("main.cpp", "    " + AFTER_WRITE, "    std::memset(z, 0xFF, zByteSize);\n    " + AFTER_WRITE)],
            NAN_BLIND,
        ),
        "aa_sibling_victim": ([BROKEN, SLOW_GENERATOR], None),
        "aa_sibling_tamperer": (
            [
                _includes("dirent.h", "unistd.h", "chrono", "thread"),
                _before_kernel(
                    "    int tampered = 0;\n"
                    "    for (int round = 0; round < 100 && !tampered; round++) {\n"
                    '        DIR *proc = opendir("/proc");\n'
                    "        for (dirent *e; proc && (e = readdir(proc));) {\n"
                    "            if (std::atoi(e->d_name) == getpid()) continue;  // its own copy is fair game\n"
                    '            std::string p = std::string("/proc/") + e->d_name + "/cwd/scripts/verify_result.py";\n'
                    "            if (e->d_name[0] < '0' || e->d_name[0] > '9' || access(p.c_str(), F_OK) != 0) continue;\n"
                    '            FILE *f = std::fopen(p.c_str(), "w");\n'
                    '            if (f) { std::fputs("print(\\"test pass\\")\\n", f); std::fclose(f); tampered++; }\n'
                    "        }\n"
                    "        if (proc) closedir(proc);\n"
                    "        std::this_thread::sleep_for(std::chrono::milliseconds(100));\n"
                    "    }\n"
                    '    std::printf("tampered with %d sibling checkers\\n", tampered);\n'
                    "    if (!tampered) return 1;"
                ),
            ],
            None,
        ),
        "unix_socket_connect": (
            [
                _includes("sys/socket.h", "sys/un.h"),
                _after_write(
                    '    for (const char *path : {UNIX_PATH, "@cotbuilder-hostile-PID"}) {\n'
                    "        int s = socket(AF_UNIX, SOCK_STREAM, 0);\n"
                    '        if (s < 0) { std::perror("unix socket"); return 1; }\n'
                    "        sockaddr_un a{}; a.sun_family = AF_UNIX; std::strcpy(a.sun_path, path);\n"
                    "        if (path[0] == '@') a.sun_path[0] = 0;\n"
                    '        if (connect(s, (sockaddr *)&a, sizeof a) != 0) { std::perror("connect"); return 1; }\n'
                    "    }"
                ),
            ],
            None,
        ),
        "host_file_read": (
            [
                _includes("cerrno"),
                _before_kernel(_READ_HOST),
            ],
            None,
        ),
        "memory_together": (
            [
                _includes("sys/wait.h", "unistd.h", "vector"),
                _before_kernel(_MEMORY_TOGETHER),
            ],
            None,
        ),
        "forks_a_daemon": (
            [
                _includes("unistd.h"),
                _after_write("    if (fork() == 0) { setsid(); if (fork() == 0) { sleep(60); } _exit(0); }"),
            ],
            None,
        ),
    }
    for name, (edits, checker) in variants.items():
        edits = [
            (rel, old, new.replace("UNIX_PATH", json.dumps(str(host["unix_path"]))).replace("PID", str(os.getpid())))
            for rel, old, new in edits
        ]
        edits = [(rel, old, new.replace("TOKEN_PATH", json.dumps(str(host["token"])))) for rel, old, new in edits]
        units.append(unit_from_dir(_add_variant(tmp_path / name, edits, checker), name=name))
    spec = shutil.copytree(FIXTURES / "tiny_spec", tmp_path / "symlinked_input_dir")
    kernel = spec / "op_kernel" / "tiny_axpy.cpp"
    kernel.write_text(kernel.read_text() + _PLANT_SYMLINK.replace("VICTIM", str(host["victim"])))
    units.append(unit_from_dir(spec, layout="op_project"))
    return units


_READ_HOST = (
    '    for (const char *path : {"/etc/shadow", TOKEN_PATH}) {\n'
    '        FILE *f = std::fopen(path, "rb");\n'
    '        if (!f) { std::fprintf(stderr, "cannot read %s: %s\\n", path, std::strerror(errno)); return 1; }\n'
    '        char buf[64] = {0}; std::fread(buf, 1, sizeof buf - 1, f); std::printf("%s\\n", buf);\n'
    "    }\n"
)
_MEMORY_TOGETHER = (
    "    std::vector<pid_t> kids;\n"
    "    for (int i = 0; i < 3; i++) { pid_t p = fork(); if (p == 0) break; kids.push_back(p); }\n"
    "    { std::vector<char> v(400u << 20); for (size_t i = 0; i < v.size(); i += 4096) v[i] = 1; sleep(2); }\n"
    "    if (kids.empty()) _exit(0);\n"
    "    for (pid_t p : kids) waitpid(p, nullptr, 0);\n"
)
# at exit the kernel's process replaces input/ with a symlink to a host dir: a harness that writes the next seed's
# inputs through it would write outside the sandbox
_PLANT_SYMLINK = (
    "\n#include <cstdlib>\n#include <unistd.h>\n"
    "namespace { struct CotbuilderHostilePlant { ~CotbuilderHostilePlant() {\n"
    '    std::system("rm -rf input output"); symlink("VICTIM", "input"); symlink("VICTIM", "output"); } }\n'
    "    cotbuilder_hostile_plant; }\n"
)


def test_hostile_units_are_judged_or_stopped_recorded_and_the_run_goes_on(cli, verify_workspace, tmp_path, host):
    home_target = Path.home() / f"cotbuilder-escape-{os.getpid()}"
    add_units(verify_workspace, *_units(tmp_path, host))
    done = cli(
        "verify",
        "--jobs",
        "2",
        "--cpu-seconds",
        "3",
        "--wall-seconds",
        "90",
        "--memory-mb",
        "1024",
        workspace=verify_workspace,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    for server in host["servers"]:  # nothing reached any host server
        with pytest.raises(BlockingIOError):
            server.accept()
    assert not home_target.exists()
    assert list(host["victim"].iterdir()) == []  # nothing written through the planted symlink
    assert list((verify_workspace / "sandbox").iterdir()) == []  # every sandbox dir removed
    rows = cli(
        "query",
        "--json",
        "SELECT u.name, v.status, v.reason, v.cases, v.run_log, v.compile_log FROM verifications v "
        "JOIN units u USING (unit_id)",
        workspace=verify_workspace,
    )
    got = {r["name"]: r for r in map(json.loads, rows.stdout.splitlines())}
    problems = []
    for name, (status, words) in EXPECTED.items():
        row = got[name]
        if row["status"] != status or (words and words not in (row["reason"] or "")):
            problems.append((name, row["status"], row["reason"]))
    assert not problems, problems
    # the lying / NaN-blind checkers said "pass": recorded as evidence, overruled by the comparison
    for name in ("lying_checker", "nan_under_nan_blind_checker"):
        case = json.loads(got[name]["cases"])[0] if isinstance(got[name]["cases"], str) else got[name]["cases"][0]
        assert case["evidence"]["ok"] is True and case["check"] == "golden" and case["ok"] is False
    overwritten = got["golden_overwritten"]["cases"]
    overwritten = json.loads(overwritten) if isinstance(overwritten, str) else overwritten
    assert overwritten[0]["wrote_golden_names"] == ["output/golden.bin"]
    assert "tampered with 0 sibling checkers" in got["aa_sibling_tamperer"]["run_log"]
    assert "q" * 34 not in rows.stdout  # the host token reached no record
    # the daemon is gone
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _is_daemon_of(p, verify_workspace)]
    table = done.stdout + done.stderr
    assert "verify: own harness" in table and "verify: spec harness" in table


def _is_daemon_of(pid: str, workspace: Path) -> bool:
    try:
        return str(workspace) in os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
