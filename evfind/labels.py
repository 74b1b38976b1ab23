"""Section labels that both sides name: ingest stores them (structure.py, forms.py), the query
routes to them (rank.py, finder.py). The rest of the labels are data (data/sections.tsv); these
are read from a page's shape, not from a heading, so no data file holds them."""

# A page that lists titles with their page numbers (a table of contents, an index to the
# statements): structure.py's ``_is_toc`` and ``_is_index``; rank.py sets such pages aside.
CONTENTS = "table_of_contents"
# A page of defined terms or of a glossary (structure.py's ``_is_definitions``).
DEFINITIONS = "definitions"
