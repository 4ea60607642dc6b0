"""The "add your report" link: the query string that opens the adapter-report issue form pre-filled.

GitHub issue forms take `template=` (the form's file name), `labels=` and any field id as a query
parameter (`usb_id=152d:0578`), and fill the form in. The file name, labels and field ids are read from
.github/ISSUE_TEMPLATE/adapter-report.yml, so a renamed label or field cannot leave the site linking to a
blank issue. The export puts the query on every adapter and USB ID; templates only print it.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Dict, Optional
from urllib.parse import quote, urlencode

import yaml

from ..paths import REPO_ROOT

FORM_PATH = REPO_ROOT / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml"
# The form fields the site fills in; each must exist in the form (tests/test_report_link.py checks it).
PREFILLED_FIELDS = ("usb_id", "adapter")


@functools.lru_cache(maxsize=4)
def report_form(form_path: Path = FORM_PATH) -> Dict[str, Any]:
    """The form's file name, labels, title prefix and field ids."""
    form = yaml.safe_load(Path(form_path).read_text(encoding="utf-8"))
    fields = [item["id"] for item in form.get("body", []) if isinstance(item, dict) and "id" in item]
    missing = [f for f in PREFILLED_FIELDS if f not in fields]
    if missing:
        raise ValueError(f"{form_path}: the site pre-fills field(s) {', '.join(missing)}, which the form lacks")
    return {"template": Path(form_path).name, "labels": list(form.get("labels", [])),
            "title": form.get("title", ""), "fields": fields}


def report_query(usb_id: Optional[str] = None, adapter: Optional[str] = None, name: Optional[str] = None,
                 form_path: Path = FORM_PATH) -> str:
    """`template=…&labels=…&title=…[&usb_id=…][&adapter=…]` for `<repo>/issues/new?`."""
    form = report_form(form_path)
    params = {"template": form["template"], "labels": ",".join(form["labels"])}
    # Always sent, so a page script can append the ID a visitor pasted to the form's own prefix.
    params["title"] = f"{form['title']}{name or usb_id or ''}"
    if usb_id:
        params["usb_id"] = usb_id
    if adapter:
        params["adapter"] = adapter
    return urlencode(params, quote_via=quote, safe=":,")
