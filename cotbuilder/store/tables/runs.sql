-- record: run
CREATE TABLE IF NOT EXISTS runs (
    run_id       VARCHAR PRIMARY KEY,
    stage        VARCHAR NOT NULL,
    config_hash  VARCHAR NOT NULL,
    config       JSON NOT NULL,
    started_at   TIMESTAMP NOT NULL,
    ended_at     TIMESTAMP,
    status       VARCHAR NOT NULL,      -- ok | partial | failed | interrupted
    counts       JSON NOT NULL,         -- {kept, skipped, failed, ...}
    reasons      JSON NOT NULL,         -- {reason: count} for skipped/failed items
    errors       JSON NOT NULL          -- [{item, error}] (first 100)
);
