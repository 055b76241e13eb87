-- record: mutant
-- Generated from schemas/mutant.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (unit, mutation kind, emulator version, SoC, seeds). A bug mutation of a verified unit (`cotbuilder
-- mutate`), verified on the CPU emulator. One that really fails (really_fails) carries the verifier's feedback and a
-- repair rationale and is published by push as a kind='repair' row, whose fixed code is the verified original; one
-- that still passes is kept only to be counted.
CREATE TABLE IF NOT EXISTS mutants (
    mutant_id       VARCHAR PRIMARY KEY,   -- the mutant's verification id (verify.stage.verification_id of the mutated unit): the same mutant verified the same way is the same id
    unit_id         VARCHAR NOT NULL,      -- the verified (passed) unit the mutant was made from: its code is the fix
    mutant_unit_id  VARCHAR NOT NULL,      -- id of the mutated unit (not stored in `units`: mutate.mutant_unit rebuilds it)
    kind            VARCHAR NOT NULL,      -- the mutation kind (cotbuilder/mutate/data/mutations.toml)
    path            VARCHAR NOT NULL,      -- the kernel file changed (unit-relative)
    line            INTEGER NOT NULL,      -- 1-based line of the change
    before          VARCHAR NOT NULL,      -- the changed line as in the verified unit
    after           VARCHAR NOT NULL,      -- the changed line as in the mutant ('' when the mutation deleted it)
    broken_code     VARCHAR NOT NULL,      -- the whole mutated kernel file
    status          VARCHAR NOT NULL,      -- the mutant's verification status (docs/statuses.md)
    reason          VARCHAR,               -- the verifier's one-line reason
    diagnostics     JSON,                  -- `[{kind, severity, message, file, line}]` the emulator reported for the mutant
    really_fails    BOOLEAN NOT NULL,      -- status is failed_compile, failed_run, wrong_answer or timeout: the mutant is a repair sample
    feedback        VARCHAR,               -- the verifier's feedback as the repair sample shows it (status, reason, diagnostics, worst output); null unless really_fails
    rationale       JSON,                  -- `[{step, title, text}]` from the feedback to the fix; null unless really_fails
    backend         VARCHAR NOT NULL,      -- cpu-emulator
    backend_version VARCHAR NOT NULL,      -- emulator version + header digest
    soc             VARCHAR NOT NULL,      -- the SoC the mutant was verified for
    created_at      TIMESTAMP NOT NULL     -- when
);
