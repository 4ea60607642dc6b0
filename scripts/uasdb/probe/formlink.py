"""The address that opens the adapter-report issue form filled in: one builder for the site's "add your report"
links (uasdb.publish.report_link) and the probe's links, so both name the same form, labels and field ids.

GitHub issue forms take `template=` (the form's file name), `labels=`, `title=` and any field id as a query
parameter (`usb_id=152d:0578`), and fill the form in with them. The form's facts come from reportform.py, which
`uasdb issue-form` writes from the form itself.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional
from urllib.parse import urlencode

from .reportform import REPORT_FORM

# GitHub answers an address longer than its server accepts with `414 URI Too Long` instead of the form. Its docs
# say so without a number (github/docs#4537); github/docs#5136 gives the limit as 8191 bytes, and projects that
# prefill issues have met it (jasiek/webchirp#22: a 13.7k query got 414). A percent-encoded address is plain
# ASCII, one byte a character, so 8,000 characters keeps a margin under 8191 bytes. CONTRIBUTING.md says the same.
LINK_LIMIT = 8000


def form_query(values: Mapping[str, Optional[str]], form: Mapping[str, Any] = REPORT_FORM) -> str:
    """`template=…&labels=…` and then each value that is set, in the order given: `title` or a field id of the
    form (any other name is refused, so a renamed field cannot leave a link filling nothing)."""
    unknown = [name for name in values if name != "title" and name not in form["fields"]]
    if unknown:
        raise ValueError(f"the report form {form['template']} has no field {', '.join(unknown)}")
    params = {"template": form["template"], "labels": ",".join(form["labels"])}
    params.update({name: value for name, value in values.items() if value is not None})
    # Form encoding, as a browser's URLSearchParams writes it: a space is `+`, not `%20` (a report is mostly
    # spaces, so a third more of it fits), and `:` and `,` stay as they are (`usb_id=152d:0578`).
    return urlencode(params, safe=":,")


def form_url(values: Mapping[str, Optional[str]], form: Mapping[str, Any] = REPORT_FORM) -> str:
    """The whole address: `<repo>/issues/new?` and form_query."""
    return f"{form['repo']}/issues/new?{form_query(values, form)}"


def report_title(name: Optional[str], form: Mapping[str, Any] = REPORT_FORM) -> str:
    """The issue title the form starts with ("Report: "), then the adapter's name or USB ID."""
    return f"{form['title']}{name or ''}"
