-- record: dedup
-- One row per unit: the near-duplicate cluster it belongs to and whether it is the cluster's representative (the one
-- that may be published). Rewritten as a whole by each dedup run that finds new input; `input_hash` is what makes an
-- unchanged re-run a no-op.
CREATE TABLE IF NOT EXISTS dedup (
    unit_id           VARCHAR PRIMARY KEY,
    cluster_id        VARCHAR NOT NULL,    -- the smallest unit_id in the cluster (stable while members stay)
    cluster_size      INTEGER NOT NULL,
    is_representative BOOLEAN NOT NULL,
    method            VARCHAR NOT NULL,    -- unique | exact | minhash: how this unit joined its cluster
    similarity        DOUBLE,              -- Jaccard to the representative (exact if --verify-jaccard, else estimated)
    representative_id VARCHAR NOT NULL,
    code_hash         VARCHAR NOT NULL,    -- sha256 of the comment- and whitespace-normalised code
    config_hash       VARCHAR NOT NULL,
    input_hash        VARCHAR NOT NULL,    -- config + every unit's code hash and ranking facts
    created_at        TIMESTAMP NOT NULL
);
