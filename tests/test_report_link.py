"""The "add your report" query: the real form's file name and labels, and only fields the form has."""
from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from uasdb.publish.report_link import FORM_PATH, report_form, report_query


def parsed(query: str) -> dict:
    return {k: v[0] for k, v in parse_qs(query).items()}


@pytest.mark.parametrize("kwargs, expected", [
    ({}, {"title": "Report: "}),
    ({"usb_id": "152d:0578"}, {"title": "Report: 152d:0578", "usb_id": "152d:0578"}),
    ({"usb_id": "152d:0578", "adapter": "a-b", "name": 'Box "2.5" & co'},
     {"title": 'Report: Box "2.5" & co', "usb_id": "152d:0578", "adapter": "a-b"}),
])
def test_query_names_the_form_its_labels_and_prefills(kwargs, expected):
    query = parsed(report_query(**kwargs))
    assert query.pop("template") == "adapter-report.yml"
    assert query.pop("labels") == "report-submitted"
    assert query == expected


def test_prefilled_fields_exist_in_the_form():
    form = report_form()
    assert form["template"] == FORM_PATH.name
    assert {"usb_id", "adapter"} <= set(form["fields"])


def test_a_form_without_the_fields_is_refused(tmp_path):
    form = tmp_path / "adapter-report.yml"
    form.write_text("name: x\nlabels: [a]\nbody:\n  - type: input\n    id: usb_id\n", encoding="utf-8")
    with pytest.raises(ValueError, match="adapter"):
        report_form(form)
