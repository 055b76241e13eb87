-- record: verification
-- Generated from schemas/verification.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (unit, backend, version, SoC, source hash). One unit built and run on one backend: did it compile, run,
-- and compute the right answer. 'Verified' = status passed: cotbuilder compared every output with a golden fixed
-- before the kernel ran. The status words are explained in docs/statuses.md.
CREATE TABLE IF NOT EXISTS verifications (
    verification_id VARCHAR PRIMARY KEY,   -- sha256 of unit_id + backend + backend_version + soc + source_hash
    unit_id         VARCHAR NOT NULL,      -- the unit built and run
    backend         VARCHAR NOT NULL,      -- cpu-emulator, npu or cann-cpu
    backend_version VARCHAR NOT NULL,      -- emulator VERSION + header digest, or the CANN version
    soc             VARCHAR NOT NULL,      -- ascend910b or ascend310p
    source_hash     VARCHAR NOT NULL,      -- sha256 over the unit's files (path + text)
    status          VARCHAR NOT NULL,      -- passed, wrong_answer, failed_compile, failed_run, timeout, unchecked, unsupported, sandbox_violation (docs/statuses.md)
    reason          VARCHAR,               -- one line: why it is not passed (missing API, checker message, limit hit)
    harness         VARCHAR,               -- which harness judged it: own / spec for kernel-launch samples; aclnn / kernel_ut / benchmark / op_spec for op projects (their aclnn example, kernel unit test, benchmark validation, or verify_spec.toml with the tiling from TilingFunc); none
    device          VARCHAR,               -- cpu, npu:N or cann-cpu
    compile_ok      BOOLEAN,               -- the build succeeded
    run_ok          BOOLEAN,               -- the run ended cleanly
    correct         BOOLEAN,               -- every case matched the golden
    missing_apis    JSON,                  -- `[name]` AscendC APIs the backend lacks (status unsupported)
    cases           JSON NOT NULL,         -- `[{seed, check: golden|none, ok, why, goldens, outputs: [{name, dtype, max_abs_err, max_rel_err, atol, rtol, mismatches, n, ok}], evidence}]`
    diagnostics     JSON NOT NULL,         -- `[{kind, severity, message, file, line}]` from the emulator (COTBUILDER_DIAG lines)
    cases_run       INTEGER,               -- how many cases (seeds) ran
    isolation       JSON,                  -- null: every isolation feature was in force; else {missing: [features]} (verify --allow-weak-sandbox)
    compile_log     VARCHAR,               -- compiler output (truncated)
    run_log         VARCHAR,               -- run output (truncated)
    timings         JSON NOT NULL,         -- `{generate_s, compile_s, run_s, check_s, total_s, pch, cached_build, device_*}`
    created_at      TIMESTAMP NOT NULL     -- when
);
