"""Problems the JSON Schemas in schema/ find (schema.py words them); one id per JSON Schema keyword the schemas use
(tests/rules/test_registry.py checks that each keyword in schema/ has its id)."""
from . import declare

declare("schema-unknown-field", "every field is one the schema knows", "schema",
      example='vendr: unknown field `vendr` — did you mean `vendor`? rename it')
declare("schema-required", "required fields are present", "schema",
      example='required field `kind` is missing — add `kind:` (What sort of product it is.)')
declare("schema-enum", "values come from the schema's vocabulary", "schema",
      example="reports[0].host: the text 'pi 4' is not an allowed value — did you mean `pi4`? use one of: …")
declare("schema-type", "values have the schema's type (text, number, list, mapping)", "schema",
      example="firmware[0].version: YAML reads unquoted `1.10` as the number 1.1, but this field is text — quote it: '1.10'")
declare("schema-pattern", "ids, USB IDs, versions and links have the expected form; links are https", "schema",
      example="reports[2].source.url: link 'javascript:alert(1)' is not an https URL — use an https:// link")
declare("schema-minlength", "text is not shorter than the schema allows", "schema",
        example='name: this value is shorter than 2 characters — Name a buyer would search for.')
declare("schema-maxlength", "text is not longer than the schema allows", "schema",
        example='name: this value is longer than 150 characters — Name a buyer would search for.')
declare("schema-minitems", "lists have at least the items the schema asks for", "schema",
        example='reports: this value needs at least 1 item(s) — Observations, one per host and source. Never merged by hand.')
declare("schema-maxitems", "lists have no more items than the schema allows", "schema",
        example='usb_ids: this value has more than 20 items — USB IDs the product reports. Several products often share one ID.')
declare("schema-minproperties", "mappings such as `source` are not empty", "schema",
      example='reports[0].source: this value is empty — give `url:` for a public page, or `tested_by:` with `evidence:`')
declare("schema-uniqueitems", "lists do not repeat an item", "schema",
        example='aliases: this value repeats an item — Former ids of this record; their URLs redirect here.')
declare("schema-maximum", "numbers are not above the schema's maximum", "schema",
        example='reports[0].power.watts: this value is above 100 — Measured power in watts.')
declare("schema-exclusiveminimum", "numbers are above the schema's lower bound", "schema",
        example='reports[0].power.watts: this value must be greater than 0 — Measured power in watts.')
declare("schema-anyof", "a value matches one of the forms the schema offers", "schema",
        example="reports[0].source: {'title': 'A forum post'} is not valid under any of the given schemas — see schema/ for the allowed form")
declare("schema-internal", "the two schema validators agree (a uasdb bug if they do not)", "schema",
        example='record failed schema validation — report it as a uasdb bug with this file attached: the two schema validators disagree about it')
