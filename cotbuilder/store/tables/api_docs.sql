-- record: api_doc
-- Generated from schemas/api_doc.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per (docs source, page, page content, extractor version). One AscendC API reference page (`cotbuilder
-- apidocs`): what cotbuilder.apidocs.extract reads from it (signatures, parameters, supported types per SoC,
-- constraints, examples) and its doc-grounded sample, with the grounding gate's verdict. The docs' text stays in the
-- user's workspace; only rows whose sample is grounded are published (kind='doc').
CREATE TABLE IF NOT EXISTS api_docs (
    doc_id          VARCHAR PRIMARY KEY,   -- sha256 of (source, path, page text, extractor and sample version)
    source          VARCHAR NOT NULL,      -- the docs folder as crawled: --url prefix, or local:<folder name>
    url             VARCHAR NOT NULL,      -- the page's source URL (--url prefix + path), or local:<folder>/<path>
    commit          VARCHAR,               -- the docs' commit (--commit), when known
    path            VARCHAR NOT NULL,      -- the page, relative to the docs folder (docs/zh/api)
    title           VARCHAR NOT NULL,      -- the page's title
    names           JSON NOT NULL,         -- the API names the page documents
    category        VARCHAR NOT NULL,      -- vector, math, cube, ... (from the page's folders)
    header          VARCHAR,               -- the include path the page gives
    license         VARCHAR NOT NULL,      -- SPDX id of the docs' licence (--license)
    products        JSON,                  -- `{soc: supported}`
    signatures      JSON NOT NULL,         -- the prototypes as written
    params          JSON NOT NULL,         -- `[{name, direction, description}]`
    template_params JSON NOT NULL,         -- `[{name, direction, description}]` of the template table
    params_none     BOOLEAN NOT NULL,      -- the page states there are no parameters
    dtypes          JSON NOT NULL,         -- `{operand: {soc or *: [types]}}`
    combinations    JSON,                  -- type combinations (Cast ...): `[{socs, types, round_modes, note}]`
    constraints     JSON NOT NULL,         -- the 约束说明 items
    has_constraints BOOLEAN NOT NULL,      -- the page has a constraints section (it may say 无)
    examples        JSON NOT NULL,         -- the 调用示例 code blocks
    description     VARCHAR,               -- the 功能说明 section, plain text
    complete        BOOLEAN NOT NULL,      -- signature, parameters (or a stated none) and a constraints section were all extracted
    sample          JSON,                  -- the doc sample: `{api, question, rationale: [{step, title, text}], answer, grounded, ungrounded: [...], claims}`; null for a page without a prototype
    grounded        BOOLEAN,               -- the sample passed the grounding gate: every statement it makes is in the page's text
    created_at      TIMESTAMP NOT NULL     -- when
);
