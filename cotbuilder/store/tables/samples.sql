-- record: sample
-- Generated from schemas/sample.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (task, teacher, purpose, round, sample index). One answer of a teacher (a model under evaluation, or a
-- synthesis teacher) to one task, with cotbuilder's verdict on it. Written by `cotbuilder eval` and `cotbuilder
-- synthesize`; docs/verbs.md.
CREATE TABLE IF NOT EXISTS samples (
    sample_id        VARCHAR PRIMARY KEY,   -- sha256 of (task, teacher key, purpose, round, sample index, parent sample): the same request is the same id, so a re-run skips it
    task_id          VARCHAR NOT NULL,      -- the task answered (`tasks.task_id`)
    task_name        VARCHAR NOT NULL,      -- its name
    level            VARCHAR,               -- the task's level tag (`level1`...), when it has one
    category         VARCHAR,               -- the task's category
    purpose          VARCHAR NOT NULL,      -- eval (a benchmark run) or synthesize (rejection sampling)
    teacher          JSON NOT NULL,         -- `{provider, model, endpoint, prompt_version, params}` (never a key)
    teacher_key      VARCHAR NOT NULL,      -- sha256 of `teacher`: the samples of one run of one teacher
    sample_index     INTEGER NOT NULL,      -- 0 … n-1
    round            INTEGER NOT NULL,      -- 0 for a first answer; r for the r-th repair of `parent_sample_id`
    parent_sample_id VARCHAR,               -- repairs: the failing sample this one tries to fix
    response         VARCHAR,               -- the teacher's reply as received (secret-scanned)
    response_hash    VARCHAR NOT NULL,      -- sha256 of the reply
    code             JSON,                  -- `{path: text}` the answer placed into the task's layout; null when nothing could be parsed
    code_hash        VARCHAR,               -- sha256 of the placed files (the reward's score-cache key part)
    parse_ok         BOOLEAN NOT NULL,      -- code could be taken out of the reply by the benchmark's rules
    status           VARCHAR NOT NULL,      -- a verdict status (docs/statuses.md), or `unparseable`, or `error` (cotbuilder's own failure)
    compiled         BOOLEAN,               -- the answer built
    correct          BOOLEAN,               -- true passed, false wrong answer, null not decided
    reward           DOUBLE,                -- the reward shaping of the status (docs/reward.md); null = no reward
    reason           VARCHAR,               -- why it did not pass
    errors           JSON,                  -- one line per failing case and seed, or the failure
    diagnostics      JSON,                  -- the emulator's findings (UB bounds, races, alignment)
    backend          VARCHAR,               -- `cpu-emulator@<version>+<header digest>`
    score_cached     BOOLEAN,               -- the verdict came from the score cache (the same answer was verified before, perhaps by a killed run)
    usage            JSON,                  -- `{prompt_tokens, completion_tokens, total_tokens, cache_hits}` of the request
    created_at       TIMESTAMP NOT NULL     -- when
);
