"""The site's pure JS modules against the Python they mirror, run by Node (the `js_modules` fixture, no page):
the check page's parsers (paste.js, check-core.js) read every capture, probe output and odd paste as the probe's
parsers do, each of their patterns in linear time, and the quirk builder's core (quirks-core.js) answers as
publish.kernel and the verdict engine do. These ran in Chromium until issue 38; the cases and assertions are the
same. What needs a page (layout, navigation, the real fetches) stays in the test_site_*.py beside this file."""
from __future__ import annotations

import pytest
from test_site_check import ASMEDIA_V, CAPTURES, JS_PARSE, captured, probe_output, python_parse
from test_site_check_link import PASTES

from pattern_worst_cases import LINEAR_FACTOR, MEGABYTE, cases, javascript_patterns
from uasdb import probe
from uasdb.publish.kernel import preserve_builtin
from uasdb.records.reference import load_kernel

# --------------------------------------------------------------------------- check page: paste.js, check-core.js

@pytest.mark.parametrize("name", CAPTURES)
def test_js_parsers_read_each_capture_exactly_like_probe_py(js_modules, name):
    text = captured(name)
    assert js_modules.call("paste.js", JS_PARSE, text) == python_parse(text)


@pytest.mark.parametrize("text", [
    "", "\n\n", "Bus 1 Device 2: ID 12:34", "bcdDevice 1.0\r\nidVendor 0xZZZZ", "usb 1-1: New USB device found, idVendor=ABCD, idProduct=EF01",
    "\u2028Bus 003 Device 004: ID ABCD:ef01 Mixed Case\u2028", "idVendor=152d 152d:05788 x152d:0578 152d:0578:u 0bda:9210",
])
def test_js_parsers_agree_with_probe_py_on_odd_input(js_modules, text):
    assert js_modules.call("paste.js", JS_PARSE, text) == python_parse(text)


@pytest.mark.parametrize("tree, host, device", [
    ("pi4-uas", "pi4", {"vid": "152d", "pid": "0578", "bcd_device": "0100", "driver": "uas", "speed": "5000M", "offers_uas": True}),
    ("pi4-kernel-ignores-uas", "pi4", {"vid": "152d", "pid": "0578", "bcd_device": "3202", "driver": "usb-storage", "offers_uas": True}),
    ("pi3-usb-storage", "pi3b-plus", {"vid": "152d", "pid": "0578", "driver": "usb-storage", "speed": "480M"}),
])
def test_js_reads_the_probe_output(js_modules, tree, host, device):
    parsed = js_modules.call("paste.js", "m.parseProbe(args[0])", probe_output(tree))
    assert parsed["host"] == host
    (found,) = parsed["devices"].values()
    assert {k: found[k] for k in device} == device


def test_js_reads_the_users_own_quirks_from_probe_output_and_dmesg(js_modules):
    assert js_modules.call("paste.js", "m.pastedQuirks(args[0])", probe_output("pi4-user-quirk")) == [{"id": "152d:0578", "letters": "u"}]
    dmesg = "[    0.000000] Kernel command line: coherent_pool=1M usb-storage.quirks=152D:0578:u,174c:55aa:U console=tty1"
    assert js_modules.call("paste.js", "m.pastedQuirks(args[0])", dmesg) == [
        {"id": "152d:0578", "letters": "u"}, {"id": "174c:55aa", "letters": "u"}]
    model = "[    0.000000] Machine model: Raspberry Pi 4 Model B Rev 1.4"
    assert js_modules.call("check-core.js", "m.analysePaste(args[0]).host", model) == "pi4"


def test_other_spellings_of_an_id_are_found(js_modules):
    text = "USB\\VID_152D&PID_0578\\0123 and 0x174c 0x55aa and 0bda:9210"
    devices = js_modules.call("check-core.js", "m.analysePaste(args[0]).devices.map((d) => d.id)", text)
    assert devices == ["0bda:9210", "152d:0578", "174c:55aa"]


def test_js_parsers_take_linear_time_on_hostile_pastes(js_modules):
    """A backtracking pattern froze the tab for minutes on a line of blanks; a megabyte now parses at once."""
    elapsed = js_modules.call("paste.js", """(() => {
      const hostile = ['  iProduct 2 x' + ' '.repeat(400000) + 'y', (' '.repeat(1000) + '\\n').repeat(1000),
        'usb 1-1: Product: a' + ' '.repeat(400000) + 'b'];
      const started = performance.now();
      for (const text of hostile) { m.parseLsusbVerbose(text); m.parseDmesg(text); m.parseLsusbTree(text); }
      return performance.now() - started;
    })()""")
    assert elapsed < 2000


# Each paste.js pattern on a megabyte of its worst case (tests/pattern_worst_cases.py), in a worker the page stops
# when it runs far past the budget: a backtracking pattern would otherwise hang the browser for hours.
JS_PATTERNS = javascript_patterns()[0]
LINEAR_WORKER = """
// Every match, as a paste is read at worst; replacing them finds them all without making an object for each.
const everyMatch = (pattern, text) => {
  const started = performance.now();
  text.replace(pattern, '');
  return performance.now() - started;
};
onmessage = ({ data }) => {
  const { source, flags, prefix, unit, suffix, size } = data;
  const text = prefix + unit.repeat(Math.floor((size - prefix.length - suffix.length) / unit.length)) + suffix;
  let reference = Infinity;  // one step per character: a lazy repeat that checks for the end after each one
  for (let i = 0; i < 3; i += 1) reference = Math.min(reference, everyMatch(/[\\s\\S]*?$/g, text));
  postMessage({ reference });
  const pattern = new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
  postMessage({ took: Math.min(everyMatch(pattern, text), everyMatch(pattern, text)) });
};
"""
RUN_LINEAR_WORKERS = """async ([code, cases, factor]) => {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const results = [];
  for (const c of cases) {
    const worker = new Worker(url);
    results.push(await new Promise((resolve) => {
      let reference = null;
      let timer = null;
      worker.onmessage = ({ data }) => {
        if ('reference' in data) {
          reference = data.reference;
          timer = setTimeout(() => resolve({ reference, took: null }), 4 * factor * reference + 500);
        } else {
          clearTimeout(timer);
          resolve({ reference, took: data.took });
        }
      };
      worker.onerror = (e) => resolve({ reference, took: null, error: e.message });
      worker.postMessage(c);
    }));
    worker.terminate();
  }
  return results;
}"""


@pytest.mark.slow  # 45 megabyte-sized runs: half a minute of Node, in `make test` (they ran in Chromium before)
@pytest.mark.parametrize("name", sorted(JS_PATTERNS))
def test_each_js_pattern_reads_a_megabyte_of_its_worst_case_in_linear_time(js_modules, name):
    source, flags = JS_PATTERNS[name]
    runs = [{"source": source, "flags": flags, "prefix": p, "unit": u, "suffix": s, "size": MEGABYTE}
            for p, u, s in cases(name)]
    results = js_modules.evaluate(RUN_LINEAR_WORKERS, [LINEAR_WORKER, runs, LINEAR_FACTOR])
    slow = [(case, result) for case, result in zip(cases(name), results, strict=True)
            if result.get("error") or result["took"] is None or result["took"] > LINEAR_FACTOR * result["reference"]]
    assert slow == [], f"{name} backtracks: {slow}"


@pytest.mark.parametrize("power, streams", [("0mA", "32"), ("36mA", "16"), ("x", "")])
def test_js_and_python_read_maxpower_and_streams_alike(js_modules, power, streams):
    text = ASMEDIA_V.format(power=power, streams=streams)
    assert js_modules.call("paste.js", JS_PARSE, text) == python_parse(text)


MODELS = ["Raspberry Pi 5 Model B Rev 1.0", "Raspberry Pi 500 Rev 1.0", "Raspberry Pi Compute Module 5 Rev 1.0",
          "Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi 400 Rev 1.0", "Raspberry Pi Compute Module 4 Rev 1.0",
          "Raspberry Pi 3 Model B Plus Rev 1.3", "Raspberry Pi 3 Model B Rev 1.2", "Raspberry Pi Compute Module 3 Plus Rev 1.0",
          "Raspberry Pi Zero 2 W Rev 1.0", "Raspberry Pi 2 Model B Rev 1.1", "Raspberry Pi Model B Plus Rev 1.2",
          "Radxa ROCK 5B", "Hardkernel ODROID-HC4", ""]


def test_the_check_page_and_the_probe_name_each_pi_alike(js_modules):
    """Pi model -> host exists twice (the probe ships alone; the check page reads pasted probe output): the
    JS port must give what probe.host_for gives, for every board."""
    from uasdb import probe
    js = js_modules.call("check-core.js", "args[0].map((model) => m.hostForModel(model))", MODELS)
    assert js == [probe.host_for(model, None) if model.startswith("Raspberry Pi") else None for model in MODELS]
    assert js[:3] == ["pi5", "pi500", "cm5"] and js[6] == "pi3b-plus"


def test_every_spelling_the_site_prints_for_an_id_is_read_back(js_modules):
    """The site lists each ID's spellings (export.usb_spellings: lsusb, udev, Windows, C source); each one a tool
    prints must be found again when pasted, on the check page and by the probe's reader. (The bare eight digits,
    152d0578, is a search spelling only: read from a paste, any eight hex digits would look like an ID.)"""
    from uasdb import probe
    from uasdb.publish.usb import usb_spellings
    for vid, pid in (("152d", "0578"), ("174c", "55aa"), ("0bda", "9210")):
        for spelling in usb_spellings(vid, pid):
            if spelling == f"{vid}{pid}":
                continue
            text = f"the adapter: {spelling} (as printed)"
            assert js_modules.call("check-core.js", "m.analysePaste(args[0]).devices.map((d) => d.id)", text) == \
                [f"{vid}:{pid}"], spelling
            assert probe.find_usb_ids(text) == [f"{vid}:{pid}"], spelling


# One UAS error-handling round as Linux prints it: the command is aborted, then one device reset, which prints a
# start line, the USB reset and a success line.
ONE_ABORT_ONE_RESET = """\
[  123.456] sd 0:0:0:0: [sda] tag#5 uas_eh_abort_handler 0 uas-tag 6 inflight: CMD IN
[  123.457] sd 0:0:0:0: [sda] tag#5 CDB: Read(10) 28 00 00 00 08 00 00 00 08 00
[  123.501] scsi host0: uas_eh_device_reset_handler start
[  123.640] usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd
[  123.662] scsi host0: uas_eh_device_reset_handler success
"""


def test_one_abort_and_one_reset_round_count_as_that(js_modules):
    """A helper reading the check page must not see "4 resets" for one aborted command and one reset: each
    round of the kernel's error handling counts once, in probe.py and on the check page alike."""
    python = probe.parse_dmesg(ONE_ABORT_ONE_RESET)["events"]
    assert [e["kind"] for e in python] == ["timeout", "reset"]
    assert js_modules.call("paste.js", "m.parseDmesg(args[0])", ONE_ABORT_ONE_RESET)["events"] == python
    twice = probe.parse_dmesg(ONE_ABORT_ONE_RESET + ONE_ABORT_ONE_RESET)["events"]
    assert [e["kind"] for e in twice] == ["timeout", "reset", "timeout", "reset"]
    bare = "[  9.1] usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd\n"  # a reset outside a round
    assert [e["kind"] for e in probe.parse_dmesg(bare)["events"]] == ["reset"]


def test_format_round_trips_for_every_capture(js_modules):
    """resultQuery(resultFromQuery(q)) == q for what every capture gives: nothing is lost or invented on the way."""
    for name, text in PASTES.items():
        query = js_modules.call("check-core.js", "m.resultQuery(m.analysePaste(args[0]))", text)
        again = js_modules.call("check-core.js", "m.resultQuery(m.resultFromQuery(new URLSearchParams(args[0])))", query) if query else ""
        assert again == query, name


# --------------------------------------------------------------------------- quirk builder: quirks-core.js


def test_js_preserving_entries_match_python_for_every_kernel_id(js_modules, site_export):
    """preserveBuiltin() in quirks-core.js against preserve_builtin() on every ID Linux 6.12 lists."""
    table = load_kernel()
    cases = [(f"{usb_id}:{letters}", None) for usb_id in table.ids() + ["0bc2:ffff", "ffff:0001"]
             for letters in ("u", "t", "f", "", "fu", "st", "gu")]
    cases += [(f"{usb_id}:{letters}", ["0128", "0128"]) for usb_id in table.ids() for letters in ("u", "t")]
    got = js_modules.call("quirks-core.js", "args[1].map(([e, span]) => m.preserveBuiltin(args[0], e, span))",
                          site_export.kernel, cases)
    expected = [preserve_builtin(table, entry, tuple(span) if span else None) for entry, span in cases]
    mismatches = [(case, g, e) for case, g, e in zip(cases, got, expected, strict=True) if g != e]
    assert mismatches == []


def test_js_merged_line_matches_python_for_the_naughty_entries(js_modules, site_export):
    """mergeEntries() and buildLine() in quirks-core.js against verdicts.merge_quirk_entries(): the builder's line for
    every naughty adapter at once, in several orders, is the export's combined line (letters united, IDs sorted)."""
    from uasdb.verdicts.engine import merge_quirk_entries
    entries = [e for a in site_export.export["adapters"] for e in a["verdict"]["quirk_entries"]]
    entries += ["152d:0578:t", "152d:0578:u", "174c:55aa:fu", "0bc2:2322:u"]   # an ID named twice, letters to unite
    cases = [entries, list(reversed(entries)), sorted(entries, key=lambda e: e[::-1])]
    got = js_modules.call("quirks-core.js", "args[0].map((list) => m.buildLine(m.mergeEntries(list.map((e) => "
                          "({ id: e.slice(0, 9), letters: e.slice(10) }))).entries))", cases)
    expected = "usb-storage.quirks=" + ",".join(f"{k}:{v}" for k, v in merge_quirk_entries(entries).items())
    assert got == [expected] * len(cases)


@pytest.mark.parametrize("typed, entries, problems", [
    ("152d:0578:u", [["152d:0578", "u"]], []),
    ("usb-storage.quirks=152D:0578:U,174c:55aa:tu", [["152d:0578", "u"], ["174c:55aa", "tu"]], []),
    ("0x152d:0x0578:u", [["152d:0578", "u"]], []),
    ("152d:0578:ux", [["152d:0578", "u"]], ["“x” in 152d:0578:ux is not a quirk letter"]),
    ("152d:0578", [], ["152d:0578 has no flag letters"]),
    ("152d:057:u hello", [], ["“152d:057:u” is not an entry", "“hello” is not an entry"]),
])
def test_typed_entries_are_read_or_explained(js_modules, site_export, typed, entries, problems):
    result = js_modules.call("quirks-core.js", "m.parseEntries(args[1], args[0])", site_export.kernel, typed)
    assert [[e["id"], e["letters"]] for e in result["entries"]] == entries
    assert len(result["problems"]) == len(problems)
    for text, expected in zip([p["text"] for p in result["problems"]], problems, strict=True):
        assert text.startswith(expected)
