-- record: unit
-- Generated from schemas/unit.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per kernel as a buildable whole. One kernel as a buildable whole: device code, host side, harness, and what
-- the parser learned of it.
CREATE TABLE IF NOT EXISTS units (
    unit_id        VARCHAR PRIMARY KEY,   -- sha256 of the normalised content of its files + provenance (source, root): the same kernel crawled twice is one unit
    source_id      VARCHAR NOT NULL,      -- the source it came from
    layout         VARCHAR NOT NULL,      -- `kernel_launch` (kernel + host main + generator/checker/build files), `op_project` (`op_kernel/` + `op_host/`), `snippet` (code from docs), `synthesized` (a teacher's verified answer to a task, made by `cotbuilder synthesize`)
    name           VARCHAR NOT NULL,      -- kernel or op name
    root           VARCHAR NOT NULL,      -- its folder in the source (page URL#heading for doc code)
    files          JSON NOT NULL,         -- `[{path, role, file_id, text}]`, paths relative to root; roles: kernel, host_main, tiling, tiling_func, op_def, data_utils, generator, checker, build, op_json, spec, snippet, other
    kernel_code    VARCHAR NOT NULL,      -- the device code, concatenated in file order
    host_code      VARCHAR NOT NULL,      -- host side: tiling struct, tiling function, OpDef, main
    entry          JSON NOT NULL,         -- `[{name, params: [{name, type}], file, line}]`: the `__global__` entry functions and their GM_ADDR parameters
    features       JSON NOT NULL,         -- `apis` {name: count}, `dtypes`, `positions`, `buffer_num`, `tile_length`, `block_dim`, `ub_bytes`, `tiling_fields`, `uses_cube`, `multi_core`, `kernel_class`, `methods`, `op_def`, …
    category       VARCHAR NOT NULL,      -- elementwise, activation, reduction, normalization, softmax, cast, broadcast, index, sort, matmul, attention, other
    complexity     INTEGER NOT NULL,      -- 1–5 (rules in `cotbuilder/parse/data/complexity.toml`)
    diagnostics    JSON NOT NULL,         -- parse diagnostics `[{file, line, column, kind, message}]` (ERROR / MISSING nodes, notes): kept, never dropped
    license        VARCHAR NOT NULL,      -- SPDX id of the unit (from its files)
    parent_unit_id VARCHAR,               -- set on units made by `annotate --repair`: the failing unit they repair
    created_at     TIMESTAMP NOT NULL     -- when
);
