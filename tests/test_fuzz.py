"""Property: whatever a contributor's editor produces, validate reports and never crashes."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import REPO, examples, run_uasdb
from uasdb.records.database import check

VALID = (REPO / "tests" / "fixtures" / "valid-record.yaml").read_bytes()

mutations = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, len(VALID) - 1), st.integers(1, 40)),
    st.tuples(st.just("insert"), st.integers(0, len(VALID)), st.binary(min_size=1, max_size=20)),
    st.tuples(st.just("insert"), st.integers(0, len(VALID)), st.sampled_from(
        [b"\t", b"\r\n", b"&a ", b"*a", b"- ", b": ", b"{", b"]", b"'", b'"', b"\xff", b"\xef\xbb\xbf", b"yes", b"2020-01-01",
         b"\n  ", b"!!python/object ", b"---\n", b"~", b"<script>", b"1.10", b"0x1f", b".inf"])),
)


def apply(raw: bytes, mutation) -> bytes:
    op, at, arg = mutation
    return raw[:at] + raw[at + arg:] if op == "delete" else raw[:at] + arg + raw[at:]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(mutations, min_size=1, max_size=4))
def test_mutated_records_never_crash_the_checker(tmp_path_factory, mutation_list):
    folder = tmp_path_factory.mktemp("fuzz") / "data" / "adapters"
    folder.mkdir(parents=True)
    raw = VALID
    for mutation in mutation_list:
        raw = apply(raw, mutation)
    path = folder / "fuzzed.yaml"
    path.write_bytes(raw)
    result = check([folder.parent])
    for problem in result.problems:  # every problem is fully located and rendered
        assert problem.line >= 1 and problem.column >= 1 and problem.rule
        problem.render()


def test_cli_on_garbage_exits_one_without_traceback(tmp_path):
    folder = tmp_path / "data" / "adapters"
    folder.mkdir(parents=True)
    (folder / "garbage.yaml").write_bytes(bytes(range(256)) * 4)
    result = run_uasdb("validate", tmp_path / "data")
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout
