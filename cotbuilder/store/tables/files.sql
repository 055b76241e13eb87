-- record: file
-- Generated from schemas/file.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per crawled file, with provenance, licence, redacted secrets. One crawled file, its provenance and licence.
-- Secrets are redacted before the text is stored.
CREATE TABLE IF NOT EXISTS files (
    file_id        VARCHAR PRIMARY KEY,   -- sha256 of source id + path + blob sha
    source_id      VARCHAR NOT NULL,      -- the source it came from
    url            VARCHAR NOT NULL,      -- provenance: source URL or folder (for doc pages the page URL)
    commit         VARCHAR,               -- the git commit it was read at
    path           VARCHAR NOT NULL,      -- path inside the source (URL path for web pages)
    blob_sha       VARCHAR NOT NULL,      -- git blob sha1 of the stored text (equal to `git hash-object` when nothing was redacted)
    license        VARCHAR NOT NULL,      -- SPDX id, LicenseRef-…, or NOASSERTION
    license_method VARCHAR NOT NULL,      -- how the licence was found: `header:<path>`, `license-file:<path>`, `manifest` or `none`
    size           BIGINT NOT NULL,       -- bytes of the file as crawled
    language       VARCHAR NOT NULL,      -- cpp, python, cmake, shell, json, markdown, html, text (verify_spec.toml), csv (a benchmark's test_cases.csv)
    secrets        JSON,                  -- `[{type, line}]` of redacted credentials (never the secret itself), or NULL
    text           VARCHAR NOT NULL,      -- the (redacted) text
    crawled_at     TIMESTAMP NOT NULL     -- when
);
