-- record: source
-- One row per crawled source (git repo, local folder, doc site). `fingerprint` is the completion mark: it is written in
-- the same transaction as the source's files and units, so a source with a fingerprint is complete.
CREATE TABLE IF NOT EXISTS sources (
    source_id    VARCHAR PRIMARY KEY,   -- sha256 of kind + canonical location + ref
    kind         VARCHAR NOT NULL,      -- git | local | docs
    url          VARCHAR NOT NULL,      -- as given (git URL, path, or doc URL)
    ref          VARCHAR,               -- requested git ref, if any
    commit       VARCHAR,               -- resolved git commit sha
    declared_license VARCHAR,           -- licence the manifest declares for the source, if any
    manifest     VARCHAR,               -- manifest file the source came from, if any
    fingerprint  VARCHAR,               -- commit sha or content hash of what was crawled; NULL until complete
    crawl_key    VARCHAR,               -- hash of the crawl settings + parser version the source was crawled with
    status       VARCHAR NOT NULL,      -- ok | failed
    error        VARCHAR,
    n_files      INTEGER,
    n_units      INTEGER,
    skipped      JSON,                  -- [{path, reason}] files left out and why
    crawled_at   TIMESTAMP NOT NULL
);
