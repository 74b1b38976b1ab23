-- evfind store: one SQLite file per filing.
--
-- Applied by evfind.store (idempotent: every statement is IF NOT EXISTS). The schema version is
-- PRAGMA user_version and the file is marked as evfind's by PRAGMA application_id; both are set
-- by evfind.store after this script runs, so they live in the code next to the version check.

-- One row per revision: the same document_id ingested from different bytes is a new revision,
-- told apart by the SHA-256 of the whole source file. Old revisions are never rewritten.
CREATE TABLE IF NOT EXISTS documents (
    revision_id   INTEGER PRIMARY KEY,
    document_id   TEXT NOT NULL,
    sha256        TEXT NOT NULL,
    source_name   TEXT NOT NULL,
    source_kind   TEXT NOT NULL,          -- pdf | html | jsonl | text
    page_count    INTEGER NOT NULL,
    ingested_at   TEXT NOT NULL,          -- UTC, ISO 8601
    form          TEXT,                   -- 10-K | 10-Q | 8-K | earnings | annual | other, read
                                          -- from the first pages (evfind.forms.form_of)
    tickers       TEXT NOT NULL DEFAULT '',  -- the filer's trading symbols its cover prints,
                                          -- space-separated ("PEP", "BRK.A BRK.B"; forms.tickers)
    UNIQUE (document_id, sha256)
);

-- One row per physical page (1-based, contiguous, blank pages included).
--   text           the page text, normalised: what is indexed, snippeted and browsed
--   raw_text       the text exactly as extracted, zlib-compressed with a preset dictionary:
--                  text in UTF-8, with \n or with \r\n line breaks (the zlib header's DICTID
--                  is its Adler-32; evfind.packing.unpack_text); NULL when it equals text
--   page_label     the printed folio: the PDF's page label where it has them (and they are
--                  not just 1..N), else the folio the page prints, read from its text in
--                  sequence with its neighbours' (evfind.folios; for an HTML filing, always
--                  the folio printed at the page's foot or head); NULL when none is found
--   heading        the headings seen on the page, " | "-joined (indexed, weighted above text)
--   context        the headings of the sections the page continues: the Item, note or
--                  subsection carried forward from earlier pages (indexed, weighted)
--   section        section label carried forward: the last heading seen at or before the
--                  top of this page (e.g. risk_factors, legal_proceedings, note:income_taxes)
--   statement      primary statement recognised on the page (income_statement,
--                  balance_sheet, cash_flow_statement, ...) or NULL
CREATE TABLE IF NOT EXISTS pages (
    id            INTEGER PRIMARY KEY,
    revision_id   INTEGER NOT NULL REFERENCES documents (revision_id),
    page_number   INTEGER NOT NULL,
    page_label    TEXT,
    text          TEXT NOT NULL,
    raw_text      BLOB,
    heading       TEXT NOT NULL DEFAULT '',
    context       TEXT NOT NULL DEFAULT '',
    section       TEXT,
    section_heading TEXT,
    statement     TEXT,
    UNIQUE (revision_id, page_number)
);

-- Where a revision's source PDF or HTML filing was, and optionally the file itself: what page
-- images (PDF) and pages' own HTML (`evfind show --html`) are made from (a revision ingested
-- from JSONL or text has no row).
--   path           the absolute path of the file when it was ingested
--   bytes          the file's bytes, kept by `evfind ingest --embed-source` (NULL otherwise):
--                  a self-contained file. Images and HTML are made only from bytes, on disk
--                  or here, whose SHA-256 is the revision's.
CREATE TABLE IF NOT EXISTS sources (
    revision_id   INTEGER PRIMARY KEY REFERENCES documents (revision_id),
    path          TEXT NOT NULL,
    bytes         BLOB
);

-- Every section label a page belongs to, for routing: the sections carried onto the page, the
-- headings that start on it, and the statement it is. origin says which. The pages of an exhibit
-- the filing attaches have the labels exhibit and exhibit_<kind> (exhibit_credit_agreement,
-- exhibit_press_release, ...: evfind/data/exhibits.tsv), headed "Exhibit 10.1 - <title>",
-- origin title on its first page and carried on the others.
CREATE TABLE IF NOT EXISTS page_sections (
    page_id       INTEGER NOT NULL REFERENCES pages (id),
    label         TEXT NOT NULL,
    heading       TEXT NOT NULL,
    origin        TEXT NOT NULL,          -- title | started | carried | statement
    PRIMARY KEY (page_id, label)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_sections_label ON page_sections (label, page_id);

-- The words on more than half of a revision's pages (lower case, singular: text.normal()).
-- Their bm25 weight is nil (FTS5 floors a negative IDF), so a query leaves them out of its
-- MATCH and scores only the pages that hold an informative word.
CREATE TABLE IF NOT EXISTS common_words (
    revision_id   INTEGER NOT NULL REFERENCES documents (revision_id),
    word          TEXT NOT NULL,
    PRIMARY KEY (revision_id, word)
) WITHOUT ROWID;

-- Full-text index over the normalised text, the headings and the context, declared the way
-- sqlite-utils' enable_fts() writes it, so `sqlite-utils search` and Datasette detect it.
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING FTS5 (
    "text", "heading", "context",
    tokenize='porter unicode61 remove_diacritics 2',
    content="pages"
);

-- Every inline-XBRL fact an HTML filing shows (ix:nonFraction, and ix:nonNumeric other than the
-- text blocks), on the page where it is first displayed. Facts of the hidden header (ix:hidden)
-- are on no page and not kept.
--   concept        the element name with its prefix (us-gaap:Revenues)
--   kind           numeric (ix:nonFraction) | text (ix:nonNumeric)
--   context        the contextRef; its period is period_start and period_end (a duration)
--                  or instant, its dimensions a JSON object {axis: member} (NULL: none)
--   unit           the unit's measure (iso4217:USD; a ratio as iso4217:USD/xbrli:shares)
--   scale, sign,   as the fact's attributes give them: scale 6 is millions; sign "-" says
--   decimals,      the value shown is the negative of the fact; format the inline-XBRL
--   format         transformation (ixt:num-dot-decimal)
--   value          the value as shown on the page ("1,234"); a long text value is cut at
--                  1,000 characters
--   row_label      the first cell of the table row that shows it ("Net sales"), or NULL
CREATE TABLE IF NOT EXISTS facts (
    id            INTEGER PRIMARY KEY,
    page_id       INTEGER NOT NULL REFERENCES pages (id),
    concept       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    context       TEXT,
    period_start  TEXT,
    period_end    TEXT,
    instant       TEXT,
    dimensions    TEXT,
    unit          TEXT,
    scale         INTEGER,
    sign          TEXT,
    decimals      TEXT,
    format        TEXT,
    value         TEXT NOT NULL,
    row_label     TEXT,
    fact_id       TEXT
);
CREATE INDEX IF NOT EXISTS facts_page ON facts (page_id);
CREATE INDEX IF NOT EXISTS facts_concept ON facts (concept, page_id);

-- The distinct (concept, row label) pairs of each revision's facts, in (concept, row_label)
-- order: what a question's line items are matched against before any fact is read
-- (factstore.fact_labels). Written with the facts, so a query reads a few hundred short rows
-- instead of sorting every fact of a filing. A revision ingested before this table existed has
-- no rows here; its pairs are read from facts.
CREATE TABLE IF NOT EXISTS fact_labels (
    revision_id   INTEGER NOT NULL REFERENCES documents (revision_id),
    concept       TEXT NOT NULL,
    row_label     TEXT
);
CREATE INDEX IF NOT EXISTS fact_labels_revision ON fact_labels (revision_id);

-- Where each inline-XBRL text block of an HTML filing runs (ix:nonNumeric ...TextBlock, with
-- its ix:continuation chain): from its first page to its last, with its first line (the note's
-- heading). The note-level blocks are a standard source of where each note begins and ends:
-- their section labels (evfind/data/textblocks.tsv) are in page_sections.
CREATE TABLE IF NOT EXISTS text_blocks (
    id            INTEGER PRIMARY KEY,
    first_page_id INTEGER NOT NULL REFERENCES pages (id),
    last_page_id  INTEGER NOT NULL REFERENCES pages (id),
    concept       TEXT NOT NULL,
    heading       TEXT NOT NULL DEFAULT ''
);
