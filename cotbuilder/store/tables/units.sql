-- record: unit
CREATE TABLE IF NOT EXISTS units (
    unit_id        VARCHAR PRIMARY KEY, -- sha256 of normalised content + provenance
    source_id      VARCHAR NOT NULL,
    layout         VARCHAR NOT NULL,    -- kernel_launch | op_project | snippet
    name           VARCHAR NOT NULL,
    root           VARCHAR NOT NULL,    -- unit folder inside the source (page URL#heading for snippets)
    files          JSON NOT NULL,       -- [{path, role, file_id, text}] paths relative to root
    kernel_code    VARCHAR NOT NULL,    -- the device code, concatenated in file order
    host_code      VARCHAR NOT NULL,    -- tiling struct, tiling func, op def, host main
    entry          JSON NOT NULL,       -- [{name, params: [{name, type}], file, line}]
    features       JSON NOT NULL,
    category       VARCHAR NOT NULL,
    complexity     INTEGER NOT NULL,
    diagnostics    JSON NOT NULL,       -- [{file, line, column, kind, message}]
    license        VARCHAR NOT NULL,
    parent_unit_id VARCHAR,             -- set for repaired candidates (annotate --repair)
    created_at     TIMESTAMP NOT NULL
);
