-- record: file
CREATE TABLE IF NOT EXISTS files (
    file_id        VARCHAR PRIMARY KEY, -- sha256 of source_id + path + blob sha
    source_id      VARCHAR NOT NULL,
    url            VARCHAR NOT NULL,    -- source url (repo URL, folder path, or page URL)
    commit         VARCHAR,
    path           VARCHAR NOT NULL,    -- path inside the source (or page URL path for docs)
    blob_sha       VARCHAR NOT NULL,    -- git blob sha1 of the stored text (matches `git hash-object`)
    license        VARCHAR NOT NULL,    -- SPDX id or NOASSERTION
    license_method VARCHAR NOT NULL,    -- how it was found: header:<path> | license-file:<path> | manifest | none
    size           BIGINT NOT NULL,
    language       VARCHAR NOT NULL,    -- cpp | python | cmake | shell | json | markdown | html | text
    secrets        JSON,                -- [{type, line}] redacted findings (never the secret itself)
    text           VARCHAR NOT NULL,
    crawled_at     TIMESTAMP NOT NULL
);
