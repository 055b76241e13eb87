-- record: verification
CREATE TABLE IF NOT EXISTS verifications (
    verification_id VARCHAR PRIMARY KEY, -- sha256 of unit_id + backend + backend_version + soc + source_hash
    unit_id         VARCHAR NOT NULL,
    backend         VARCHAR NOT NULL,    -- cpu-emulator | npu | cann-cpu
    backend_version VARCHAR NOT NULL,    -- emulator VERSION+header digest, or the CANN version
    soc             VARCHAR NOT NULL,    -- ascend910b | ascend310p
    source_hash     VARCHAR NOT NULL,    -- sha256 over the unit's files (path + text)
    status          VARCHAR NOT NULL,    -- passed | wrong_answer | failed_compile | failed_run | timeout | unchecked | unsupported | sandbox_violation (docs/statuses.md)
    reason          VARCHAR,             -- one line: why it is not passed (missing API, checker message, limit hit)
    harness         VARCHAR,             -- own | spec | none: which harness judged it
    device          VARCHAR,             -- cpu | npu:N | cann-cpu
    compile_ok      BOOLEAN,
    run_ok          BOOLEAN,
    correct         BOOLEAN,
    missing_apis    JSON,                -- [name] AscendC APIs the backend lacks (status unsupported)
    cases           JSON,                -- [{seed, check: golden|none, ok, why, goldens, outputs: [{name, dtype, max_abs_err, max_rel_err, atol, rtol, mismatches, n, ok}], evidence}]
    cases_run       INTEGER,             -- how many cases (seeds) ran
    diagnostics     JSON,                -- [{kind, severity, message, file, line}] from the emulator (COTBUILDER_DIAG lines)
    isolation       JSON,                -- null, or {missing: [features]} when verified without full isolation
    compile_log     VARCHAR,
    run_log         VARCHAR,
    timings         JSON,                -- {generate_s, compile_s, run_s, check_s, total_s, pch, cached_build, device_*}
    created_at      TIMESTAMP NOT NULL
);
