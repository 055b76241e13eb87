-- record: dedup
-- Generated from schemas/dedup.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per unit: its near-duplicate cluster and whether it represents it. A unit's near-duplicate cluster and
-- whether it is the cluster representative (the copy that may be published).
CREATE TABLE IF NOT EXISTS dedup (
    unit_id           VARCHAR PRIMARY KEY,   -- the unit
    cluster_id        VARCHAR NOT NULL,      -- the smallest unit_id in the cluster (stable while members stay)
    cluster_size      INTEGER NOT NULL,      -- members of the cluster
    is_representative BOOLEAN NOT NULL,      -- the cluster's representative (the one that may be published)
    method            VARCHAR NOT NULL,      -- unique, exact or minhash: how the unit joined its representative
    similarity        DOUBLE,                -- Jaccard to the representative (exact with --verify-jaccard, else estimated)
    representative_id VARCHAR NOT NULL,      -- the cluster's representative
    code_hash         VARCHAR NOT NULL,      -- sha256 of the comment- and whitespace-normalised code
    config_hash       VARCHAR NOT NULL,      -- hash of the dedup settings
    input_hash        VARCHAR NOT NULL,      -- config + every unit's code hash and ranking facts: an unchanged re-run is a no-op
    created_at        TIMESTAMP NOT NULL     -- when
);
