-- record: contamination
-- One row per unit: clean, or contaminated with the strongest hit (benchmark, task) and all evidence.
CREATE TABLE IF NOT EXISTS contamination (
    unit_id      VARCHAR PRIMARY KEY,
    verdict      VARCHAR NOT NULL,    -- clean | contaminated
    benchmark    VARCHAR,             -- strongest hit's benchmark (NULL when clean)
    task         VARCHAR,             -- strongest hit's task, e.g. level1/Comparison/Less (NULL when clean)
    evidence     JSON NOT NULL,       -- {hits: [{benchmark, task, checks: [{kind, count|similarity, sample, answer}]}],
                                      --  checked: [{benchmark, index_hash, commit}]}
    config_hash  VARCHAR NOT NULL,    -- check parameters + the benchmarks' index hashes
    input_hash   VARCHAR NOT NULL,    -- the unit + its annotations' ids (what was compared)
    created_at   TIMESTAMP NOT NULL
);
