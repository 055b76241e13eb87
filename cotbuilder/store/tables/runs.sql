-- record: run
-- Generated from schemas/run.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per stage run: config, time, counts, reasons. One stage run: its config, when, and what it kept, skipped
-- and failed (with reasons).
CREATE TABLE IF NOT EXISTS runs (
    run_id      VARCHAR PRIMARY KEY,   -- random id of the run
    stage       VARCHAR NOT NULL,      -- crawl, verify, annotate, dedup, decontaminate, push
    config_hash VARCHAR NOT NULL,      -- hash of the stage's config
    config      JSON NOT NULL,         -- the config (credentials removed)
    started_at  TIMESTAMP NOT NULL,    -- when it started
    ended_at    TIMESTAMP,             -- when it ended
    status      VARCHAR NOT NULL,      -- ok, partial (some items failed), failed or interrupted
    counts      JSON NOT NULL,         -- `{kept, skipped, failed, …}` and stage-specific counters
    reasons     JSON NOT NULL,         -- `{"skipped: already verified": n, "failed: …": n}`
    errors      JSON NOT NULL          -- the first 100 `{item, reason, error}`
);
