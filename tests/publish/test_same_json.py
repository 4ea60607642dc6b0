"""The watcher reuses a piece's JSON text when its value is `same_json` as last time: that must hold exactly when
the two values encode to the same text, or a live edit would show stale text (or encode for nothing)."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from uasdb.publish.files import same_json

scalars = st.one_of(st.none(), st.booleans(), st.sampled_from([0, 1, 360, 1.0, 360.0, 0.5]), st.sampled_from(["", "a", "1"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3)), max_leaves=12)


@settings(max_examples=examples(150), deadline=None)
@given(values, values)
def test_same_json_is_true_exactly_when_the_text_is_the_same(a, b):
    assert same_json(a, b) == (json.dumps(a) == json.dumps(b))
    assert same_json(a, json.loads(json.dumps(a)))


def test_key_order_and_number_types_tell_values_apart():
    assert not same_json({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not same_json([360], [360.0]) and not same_json({"x": True}, {"x": 1})
    assert same_json({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
