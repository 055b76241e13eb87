-- record: source
-- Generated from schemas/source.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per crawled source (git repo, local folder, doc site). A crawled source: a git repository, a local folder
-- or a documentation site.
CREATE TABLE IF NOT EXISTS sources (
    source_id        VARCHAR PRIMARY KEY,   -- sha256 of kind + canonical location + ref
    kind             VARCHAR NOT NULL,      -- git, local or docs; synthesized: a teacher's verified answers (`cotbuilder synthesize`), url = synthesize:<model>
    url              VARCHAR NOT NULL,      -- as given (paths made absolute), credentials removed
    ref              VARCHAR,               -- the requested git ref (branch, tag or sha), if any
    commit           VARCHAR,               -- the git commit crawled
    declared_license VARCHAR,               -- the licence the manifest declares for the source, if any
    manifest         VARCHAR,               -- the manifest file the source came from, if any
    fingerprint      VARCHAR,               -- completion mark: commit sha, `stat:<hash>` (folders) or `pages:<hash>` (web docs); NULL until the source is complete
    crawl_key        VARCHAR,               -- hash of the crawl settings and parser version the source was crawled with
    status           VARCHAR NOT NULL,      -- ok or failed
    error            VARCHAR,               -- why the source failed
    n_files          INTEGER,               -- rows the source holds in `files`
    n_units          INTEGER,               -- rows the source holds in `units`
    skipped          JSON,                  -- `[{path, reason}]` files and pages left out and why
    crawled_at       TIMESTAMP NOT NULL     -- when
);
