-- record: annotation
-- Generated from schemas/annotation.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (unit, sample, language, kind, teacher). A teacher's task statement and chain-of-thought rationale for
-- one unit (or a repair of a failed unit), with the quality-gate results, token usage and cost. Publishable when
-- status='ok' and gates_passed.
CREATE TABLE IF NOT EXISTS annotations (
    annotation_id     VARCHAR PRIMARY KEY,   -- sha256 of (unit, sample, lang, kind, teacher key): the same request is the same id
    unit_id           VARCHAR NOT NULL,      -- the unit the annotation explains (for repairs: the repaired candidate)
    sample_index      INTEGER NOT NULL,      -- 0 … samples-1
    lang              VARCHAR NOT NULL,      -- en or zh
    kind              VARCHAR NOT NULL,      -- cot (explain a unit) or repair (fix a failed unit)
    source_unit_id    VARCHAR,               -- repairs: the failed unit the fix started from
    teacher           JSON NOT NULL,         -- `{provider, model, prompt_version, params}`
    facts_hash        VARCHAR,               -- digest of the unit facts the annotation was written from; a row whose facts changed is redone under the same annotation_id
    status            VARCHAR NOT NULL,      -- ok, or failed (the teacher's answer was unusable: invalid, truncated, refused, too large)
    failure_reason    VARCHAR,               -- why the answer failed
    task              VARCHAR,               -- the user's request the kernel answers (no code)
    rationale         JSON,                  -- `[{step, title, text}]` named reasoning steps
    gates             JSON NOT NULL,         -- `{gate_name: {passed, detail}}` quality-gate results
    gates_passed      BOOLEAN NOT NULL,      -- every gate passed (publishable when status is ok)
    usage             JSON NOT NULL,         -- `{prompt_tokens, completion_tokens, total_tokens, requests, cache_hits}`
    cost_usd          DOUBLE NOT NULL,       -- money the answer cost (price table × usage)
    raw_response_hash VARCHAR,               -- sha256 of the final raw response text (after secret redaction)
    created_at        TIMESTAMP NOT NULL     -- when
);
