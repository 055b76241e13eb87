-- record: mutant
-- Generated from schemas/mutant.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (unit, mutation kind, emulator version, SoC, seeds). A repair pair: broken code next to a verified
-- (passed) unit that fixes it. From `cotbuilder mutate` (origin mutate): a bug mutation of the unit, verified on the
-- CPU emulator; one that still passes is kept only to be counted. From `cotbuilder synthesize` (origin synthesize): a
-- teacher's answer that really failed and the teacher's repair of it that passed and was kept as the unit. One that
-- really fails (really_fails) carries the verifier's feedback and a repair rationale and is published by push as a
-- kind='repair' row, whose fixed code is the unit.
CREATE TABLE IF NOT EXISTS mutants (
    mutant_id       VARCHAR PRIMARY KEY,   -- mutate: the mutant's verification id (verify.stage.verification_id of the mutated unit): the same mutant verified the same way is the same id; synthesize: sha256 of the repair sample's id
    origin          VARCHAR NOT NULL,      -- mutate (a planted mutation of the unit) or synthesize (a teacher's failing answer and its passing repair)
    sample_id       VARCHAR,               -- synthesize: the repair in `samples` that passed (its parent_sample_id is the broken answer); null for mutate
    unit_id         VARCHAR NOT NULL,      -- the verified (passed) unit the mutant was made from: its code is the fix
    mutant_unit_id  VARCHAR NOT NULL,      -- id of the mutated (broken) unit, not stored in `units` (mutate.mutant_unit rebuilds a mutant; synthesize: the broken answer parsed as a unit)
    kind            VARCHAR NOT NULL,      -- the mutation kind (cotbuilder/mutate/data/mutations.toml): planted by mutate or by the static teacher; teacher_answer when a model wrote the broken code itself
    path            VARCHAR NOT NULL,      -- the kernel file changed (unit-relative)
    line            INTEGER NOT NULL,      -- 1-based line of the (first) change, in the broken file
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
