"""Problems found while reading a file, before any schema or rule sees it (loader.py and database.py report them)."""
from . import declare

FILE = YAML = "file"  # one scope: both happen before the schema sees the record

declare("file-too-large", "files over 256 KiB are refused (never read further than that)", FILE,
        example='file is larger than the 256 KiB limit — split the record or trim long evidence to the relevant lines')
declare("file-not-regular", "symbolic links, FIFOs, devices and folders named *.yaml are never opened", FILE,
        example='is a symbolic link; records are plain files — replace the link with the file it points to')
declare("file-unreadable", "the file can be opened and read", FILE,
        example="cannot read file: Permission denied — check the path and its permissions")
declare("file-location", "a record lives in data/adapters/, data/chipsets/ or data/distributions/ and ends in .yaml", FILE,
        example='not inside data/adapters/, data/chipsets/ or data/distributions/ — move the file into the folder for its kind')
declare("file-bom", "no byte-order mark at the start", FILE, fixer="removes the byte-order mark",
        example='file starts with a byte-order mark (BOM) — save as UTF-8 without BOM')
declare("file-encoding", "UTF-8 text without NUL or other stray control bytes", FILE,
        example='byte 0xe9 is not valid UTF-8 — re-save the file as UTF-8')
declare("file-line-endings", "LF line ends, not CRLF or CR", FILE, fixer="converts line ends to LF",
        example='Windows (CRLF) or old Mac (CR) line endings — use LF line endings')
declare("file-conflict-marker", "no merge-conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`), not even inside a block of text",
        FILE, example="merge-conflict marker `<<<<<<< HEAD` — resolve the merge conflict: keep the lines you mean, "
                      "delete the marker lines")
declare("file-tabs", "no tab characters", FILE, fixer="replaces tabs in indentation (tabs inside values stay for a person)",
        example='tab character — replace the tab with a space')
declare("file-empty", "the file holds a record, not nothing or only comments", FILE,
        example='file is empty — write a record, starting from the example in docs/example-record.md')
declare("yaml-syntax", "the file is valid YAML", YAML,
        example="invalid YAML: did not find expected ',' or ']' — check indentation and quoting on this line and the one before")
declare("yaml-duplicate-key", "a key appears once per mapping (YAML would silently keep the last)", YAML,
        example='name: duplicate key `name` (first at line 3); YAML would silently keep only the last — merge the two entries into one')
declare("yaml-anchor", "no anchors or aliases (no YAML bombs)", YAML,
        example='model: YAML alias *n is not allowed — write the value out in full')
declare("yaml-tag", "no explicit tags such as `!!python/object`", YAML,
        example="explicit YAML tag '!!python/object' is not allowed — remove the tag and write a plain value")
declare("yaml-directive", "no `%YAML` or `%TAG` directive", YAML, fixer="removes the directive and the `---` after it",
        example="a `%YAML 1.1` directive: it tells some YAML tools to read the file differently from the rest (records "
                "are read one way by every tool) — delete the directive and the `---` line after it")
declare("yaml-merge-key", "no `<<` merge keys (tools disagree on them)", YAML,
        example="<<: `<<` is a YAML merge key: some tools merge the mapping after it into this one, others read a field "
                "named `<<` — write the fields out in full")
declare("yaml-multiple-documents", "one YAML document per file (no `---` separators)", YAML,
        example='file holds 2 YAML documents — keep one record per file')
declare("yaml-top-level", "the top level is a mapping of fields, not a list or a single value", YAML,
        example='the top level is a list, not a mapping of fields')
declare("yaml-unquoted-date", "dates are quoted text, not YAML date objects", YAML,
        example="reports[0].date: unquoted `2021-03-04` is read as a date object, not text — quote it: '2021-03-04'")
declare("yaml-ambiguous", "no plain values YAML 1.1 and 1.2 read differently (`yes`, `off`, `0578`, `26e8`, `0o17`)", YAML,
        example='unquoted `yes` is a boolean in YAML 1.1 but text in YAML 1.2, so tools disagree on it — write true or false, or quote it')
declare("yaml-number", "numbers are finite and at most 32 characters long", YAML,
        example='`.nan` is not a finite number')
declare("yaml-depth", "values nest at most 16 levels deep", YAML,
        example='values nested more than 16 levels deep — flatten it: records need four or five levels at most')
declare("yaml-key", "mapping keys are plain text", YAML,
        example='a mapping key must be plain text')
