-- record: contamination
-- Generated from schemas/contamination.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per unit: clean, near or contaminated, with evidence. Whether a unit overlaps a benchmark (NPUKernelBench,
-- MultiKernelBench, any folder): clean, near (shares a kernel body with a benchmark answer) or contaminated (a copy
-- of a benchmark answer or task), with the evidence.
CREATE TABLE IF NOT EXISTS contamination (
    unit_id     VARCHAR PRIMARY KEY,   -- the unit
    verdict     VARCHAR NOT NULL,      -- clean; near (shares a kernel body with a benchmark answer); contaminated (a copy of a benchmark answer or task)
    benchmark   VARCHAR,               -- the strongest hit's benchmark (NULL when clean)
    task        VARCHAR,               -- the strongest hit's task, e.g. level1/Comparison/Less (NULL when clean)
    evidence    JSON NOT NULL,         -- `{hits: [{benchmark, task, verdict, checks: [{kind, count, fraction, similarity, answer, sample}]}], checked: [{benchmark, index_hash, commit}]}`
    config_hash VARCHAR NOT NULL,      -- check parameters + the benchmarks' index hashes
    input_hash  VARCHAR NOT NULL,      -- the unit + its annotations' ids (what was compared)
    created_at  TIMESTAMP NOT NULL     -- when
);
