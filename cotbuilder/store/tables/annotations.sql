-- record: annotation
CREATE TABLE IF NOT EXISTS annotations (
    annotation_id     VARCHAR PRIMARY KEY, -- sha256 of (unit, sample, lang, kind, teacher key): same request = same id
    unit_id           VARCHAR NOT NULL,    -- the unit the annotation explains (for repairs: the repaired candidate)
    sample_index      INTEGER NOT NULL,    -- 0..samples-1
    lang              VARCHAR NOT NULL,    -- en | zh
    kind              VARCHAR NOT NULL,    -- cot (explain a unit) | repair (fix a failed unit)
    source_unit_id    VARCHAR,             -- repairs: the failed unit the fix started from
    teacher           JSON NOT NULL,       -- {provider, model, prompt_version, params}
    facts_hash        VARCHAR,             -- digest of the unit facts it was written from: other facts = stale row
    status            VARCHAR NOT NULL,    -- ok | failed
    failure_reason    VARCHAR,
    task              VARCHAR,             -- the user's request (no code)
    rationale         JSON,                -- [{step, title, text}]
    gates             JSON NOT NULL,       -- {gate_name: {passed, detail}}
    gates_passed      BOOLEAN NOT NULL,
    usage             JSON NOT NULL,       -- {prompt_tokens, completion_tokens, total_tokens, requests, cached}
    cost_usd          DOUBLE NOT NULL,
    raw_response_hash VARCHAR,             -- sha256 of the final raw response text
    created_at        TIMESTAMP NOT NULL
);
