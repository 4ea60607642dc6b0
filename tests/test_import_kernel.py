"""`uasdb import-kernel`: every entry of the kernel's tables read, or an error naming file and line."""
import io
import shutil
import tarfile
from pathlib import Path

import pytest
import yaml

from uasdb.ingest.importers import kernel
from uasdb.ingest.importers.common import SourceError

TREE = Path(__file__).parent / "fixtures" / "kernel-tree"
UAS = "drivers/usb/storage/unusual_uas.h"
DEVS = "drivers/usb/storage/unusual_devs.h"


@pytest.fixture(scope="module")
def parsed():
    return kernel.parse_kernel(kernel.read_sources(TREE))


def sources(**changes):
    """The fixture tree's texts, with some files replaced or edited (name -> text or function)."""
    texts = kernel.read_sources(TREE)
    for name, change in changes.items():
        path = {"uas": UAS, "devs": DEVS, "params": kernel.PARAMETERS, "usb_c": kernel.USB_C,
                "detect": kernel.UAS_DETECT, "usual": kernel.USB_USUAL, "makefile": kernel.MAKEFILE}[name]
        texts[path] = change(texts[path]) if callable(change) else change
    return texts


def entry_rows(data):
    return [(e["vid"], e["pid"], e["bcd_min"], e["bcd_max"], tuple(e["flags"]), e["file"].rsplit("/", 1)[1], e["line"], e.get("condition"))
            for e in data["entries"]]


def test_every_entry_of_both_headers_sorted_by_id(parsed):
    assert entry_rows(parsed) == [
        ("03f0", "0107", "0200", "0200", (), "unusual_devs.h", 11, None),
        ("03f3", "0001", "0000", "9999", ("SCM_MULT_TARG",), "unusual_devs.h", 16, None),
        ("0436", "0005", "0100", "0100", ("SINGLE_LUN",), "unusual_devs.h", 23, "defined(NO_SDDR09)"),
        ("0525", "a4a5", "0000", "9999", ("CAPACITY_OK",), "unusual_devs.h", 31, None),
        ("0984", "0301", "0128", "0128", ("IGNORE_UAS",), "unusual_uas.h", 10, None),
        ("152d", "0567", "0000", "9999", ("BROKEN_FUA", "NO_REPORT_OPCODES"), "unusual_uas.h", 17, None),
        ("152d", "0567", "0114", "0117", ("BROKEN_FUA",), "unusual_devs.h", 38, None),
        ("2109", "0715", "0000", "9999", ("IGNORE_UAS",), "unusual_devs.h", 44, None),
        ("2537", "1068", "0000", "9999", ("IGNORE_UAS",), "unusual_uas.h", 23, None),
        ("4971", "1012", "0000", "9999", ("IGNORE_UAS",), "unusual_uas.h", 31,
         "defined(CONFIG_FIXTURE_A) && !defined(CONFIG_FIXTURE_B)"),
        ("4971", "8017", "0000", "9999", ("NO_REPORT_OPCODES",), "unusual_uas.h", 37,
         "!(defined(CONFIG_FIXTURE_A) && !defined(CONFIG_FIXTURE_B))"),
    ]


def test_strings_survive_commas_comments_and_concatenation(parsed):
    by_id = {(e["vid"], e["pid"]): e for e in parsed["entries"]}
    assert by_id[("2109", "0715")]["vendor"] == "VIA Labs, Inc."
    assert by_id[("4971", "1012")]["vendor"] == "Hitachi"
    assert by_id[("4971", "1012")]["product"] == "External HDD"
    assert by_id[("0984", "0301")]["product"] == ""


def test_non_default_protocol_transport_init_and_macro_are_kept(parsed):
    by_id = {(e["vid"], e["pid"]): e for e in parsed["entries"]}
    assert by_id[("03f0", "0107")]["protocol"] == "USB_SC_8070" and by_id[("03f0", "0107")]["transport"] == "USB_PR_CB"
    assert by_id[("03f3", "0001")]["init"] == "usb_stor_euscsi_init"
    assert by_id[("0525", "a4a5")]["macro"] == "COMPLIANT_DEV"
    assert "protocol" not in by_id[("152d", "0567")] and "macro" not in by_id[("152d", "0567")]


def test_counts_defines_and_includes(parsed):
    assert parsed["files"] == {UAS: {"unusual_dev": 5, "compliant_dev": 0, "usual_dev": 0},
                               DEVS: {"unusual_dev": 5, "compliant_dev": 1, "usual_dev": 2}}
    assert parsed["defines"] == [{"name": "NO_SDDR09", "file": DEVS, "line": 8,
                                  "condition": "!defined(CONFIG_USB_STORAGE_SDDR09) && !defined(CONFIG_USB_STORAGE_SDDR09_MODULE)"}]
    assert parsed["includes"] == [{"file": DEVS, "line": 52, "includes": UAS, "condition": "IS_ENABLED(CONFIG_USB_UAS)"}]


def test_letter_table_with_the_driver_each_letter_matters_for(parsed):
    letters = {k: (v["flag"], v["drivers"]) for k, v in parsed["quirk_letters"].items()}
    assert letters == {"f": ("NO_REPORT_OPCODES", "uas"), "g": ("MAX_SECTORS_240", "uas"), "o": ("CAPACITY_OK", "usb-storage"),
                       "s": ("SINGLE_LUN", "both"), "t": ("NO_ATA_1X", "uas"), "u": ("IGNORE_UAS", "both")}
    assert parsed["user_entry_replaces"] == ["CAPACITY_OK", "IGNORE_UAS", "MAX_SECTORS_240", "NO_ATA_1X", "NO_REPORT_OPCODES", "SINGLE_LUN"]


def test_flag_catalogue_in_bit_order_with_letters(parsed):
    assert [(f["name"], f.get("letter")) for f in parsed["flags"]][:3] == [("SINGLE_LUN", "s"), ("SCM_MULT_TARG", None), ("CAPACITY_OK", "o")]


def test_runtime_checks_from_uas_detect(parsed):
    assert [(c["vid"], c.get("pids"), c["flags"], c.get("decided_by"), c.get("strings"), c["line"]) for c in parsed["runtime"]] == [
        ("174c", ["5106", "55aa"], ["IGNORE_UAS", "MAX_SECTORS_240"], ["max-power", "link-speed", "streams"], None, 16),
        ("0bc2", None, ["NO_ATA_1X"], None, None, 31),
        ("0bda", ["9210"], ["IGNORE_UAS"], None, {"manufacturer": "HIKSEMI", "product": "MD202"}, 34),
    ]


def test_runtime_device_tests_become_ordered_steps(parsed):
    """The ASMedia block's if / else if / else chain, in order, as fields a pasted `lsusb -v` gives."""
    (asmedia,) = [c for c in parsed["runtime"] if c["vid"] == "174c"]
    assert [(s.get("when"), list(s["flags"])) for s in asmedia["steps"]] == [
        ({"field": "max_power_ma", "op": "==", "value": 0}, []),
        ({"field": "speed_mbps", "op": "<", "value": 5000}, ["IGNORE_UAS"]),
        ({"field": "max_streams", "op": "==", "value": 32}, ["IGNORE_UAS"]),
        (None, ["MAX_SECTORS_240"]),
    ]
    assert all("steps" not in c for c in parsed["runtime"] if c["vid"] != "174c")


def test_version_from_the_makefile(parsed):
    assert (parsed["version"], parsed["release"]) == ("6.12", "6.12.0-fixture")
    assert kernel.output_path(Path("data"), parsed["version"]) == Path("data/kernel/linux-6.12.yaml")


def test_output_is_generated_marked_and_stable(parsed):
    text = kernel.render(parsed, "uasdb import-kernel tree", ("linux-source-6.12", "6.12.0-1"))
    first, rest = text.split("\n", 1)
    assert first == ("# Generated by `uasdb import-kernel tree` from Linux 6.12.0-fixture "
                     "(Debian package linux-source-6.12 6.12.0-1). Do not edit: run the command again.")
    assert text == kernel.render(kernel.parse_kernel(kernel.read_sources(TREE)), "uasdb import-kernel tree", ("linux-source-6.12", "6.12.0-1"))
    data = yaml.safe_load(rest)
    assert list(data)[:3] == ["version", "release", "debian_package"]
    assert all(isinstance(e["vid"], str) and isinstance(e["bcd_max"], str) for e in data["entries"])


def _tarball(tmp_path, compression="xz", prefix="linux-source-6.12/"):
    archive = tmp_path / f"linux.tar.{compression}"
    with tarfile.open(archive, f"w:{compression}") as tar:
        for path in sorted(TREE.rglob("*")):
            if path.is_file():
                tar.add(path, arcname=prefix + str(path.relative_to(TREE)))
    return archive


def test_tarball_reads_like_the_tree(tmp_path, parsed):
    assert kernel.parse_kernel(kernel.read_sources(_tarball(tmp_path))) == parsed


def test_tarball_missing_a_file_names_it(tmp_path):
    archive = tmp_path / "short.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        data = b"VERSION = 6\n"
        info = tarfile.TarInfo("linux/Makefile")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(SourceError, match=r"lacks .*unusual_devs\.h"):
        kernel.read_sources(archive)


def test_not_a_tarball(tmp_path):
    junk = tmp_path / "linux.tar.xz"
    junk.write_text("not an archive")
    with pytest.raises(SourceError, match="cannot read the tarball"):
        kernel.read_sources(junk)


def test_tree_missing_a_file_names_it(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(TREE, tree)
    (tree / UAS).unlink()
    with pytest.raises(SourceError, match="unusual_uas.h is missing"):
        kernel.read_sources(tree)


def _drop_line(text, needle):
    return "\n".join(line for line in text.split("\n") if needle not in line)


BROKEN = [
    ("nine arguments", {"uas": lambda t: t.replace('\t\t"Norelsys",\n', "")},
     f"{UAS}:23: UNUSUAL_DEV has 9 arguments, expected 10"),
    ("unknown flag", {"uas": lambda t: t.replace("US_FL_BROKEN_FUA | US_FL_NO_REPORT_OPCODES", "US_FL_BROKEN_FUA | US_FL_MADE_UP")},
     f"{UAS}:21: US_FL_MADE_UP is not defined in include/linux/usb_usual.h"),
    ("flag arithmetic", {"uas": lambda t: t.replace("US_FL_BROKEN_FUA | US_FL_NO_REPORT_OPCODES", "US_FL_BROKEN_FUA + 1")},
     f"{UAS}:21: cannot read `US_FL_BROKEN_FUA + 1`"),
    ("vendor id not a number", {"devs": lambda t: t.replace("0x2109, 0x0715", "VIA_VID, 0x0715")},
     f"{DEVS}:44: vendor ID `VIA_VID` is not a 16-bit number"),
    ("vendor name not a string", {"devs": lambda t: t.replace('"VIA Labs, Inc."', "VIA_NAME")},
     f"{DEVS}:45: vendor name `VIA_NAME` is not a string literal"),
    ("empty bcd range", {"devs": lambda t: t.replace("0x152d, 0x0567, 0x0114, 0x0117", "0x152d, 0x0567, 0x0117, 0x0114")},
     f"{DEVS}:38: bcdDevice range 0117-0114 is empty"),
    ("comment never closed", {"devs": lambda t: t + "\n/* trailing"},
     f"{DEVS}:59: comment is never closed"),
    ("#if never closed", {"uas": lambda t: t.replace("#endif\n", "")},
     f"{UAS}:29: #if block is never closed with #endif"),
    ("#endif without #if", {"devs": lambda t: t + "#endif\n"},
     f"{DEVS}:58: #endif without a matching #if"),
    ("unknown directive", {"devs": lambda t: t.replace("#define NO_SDDR09", "#error no")},
     f"{DEVS}:8: unexpected preprocessor directive #error"),
    ("stray code", {"devs": lambda t: t.replace("/* Unusual uas devices */", "static int x = 1;")},
     f"{DEVS}:50: unexpected `static`"),
    ("another macro", {"devs": lambda t: t.replace("USUAL_DEV(USB_SC_RBC, USB_PR_CB),", "ODD_DEV(1, 2),")},
     f"{DEVS}:56: unexpected `ODD_DEV`"),
    ("directive inside an entry", {"uas": lambda t: t.replace('\t\t"Apricorn",\n', '#ifdef X\n\t\t"Apricorn",\n#endif\n')},
     f"{UAS}:11: preprocessor line inside the UNUSUAL_DEV call started at line 10"),
    ("no entries at all", {"uas": "/* nothing here */\n"},
     f"{UAS}: no UNUSUAL_DEV entries found"),
    ("letters undocumented", {"params": lambda t: t.replace("usb-storage.quirks=", "usb-storage.quirkz=")},
     f"{kernel.PARAMETERS}: no `usb-storage.quirks=` entry"),
    ("docs and code disagree", {"params": lambda t: t.replace("t = NO_ATA_1X", "t = NO_REPORT_OPCODES")},
     f"{kernel.PARAMETERS}:20: letter t: documented as NO_REPORT_OPCODES, but drivers/usb/storage/usb.c:5 reads it as NO_ATA_1X"),
    ("undocumented letter in code", {"params": lambda t: _drop_line(t, "s = SINGLE_LUN")},
     f"{kernel.PARAMETERS}: letter s: documented as nothing, but drivers/usb/storage/usb.c:5 reads it as SINGLE_LUN"),
    ("no runtime checks", {"detect": lambda t: t.replace("descriptor.idVendor", "descriptor.bcdUSB")},
     f"{kernel.UAS_DETECT}:12: no idVendor tests found in uas_use_uas_driver()"),
    ("unknown device test", {"detect": lambda t: t.replace("bMaxPower == 0", "bmAttributes == 0")},
     f"{kernel.UAS_DETECT}:16: cannot read the device test `udev->actconfig->desc.bmAttributes == 0`"),
    ("no version", {"makefile": lambda t: t.replace("PATCHLEVEL = 12\n", "")},
     f"{kernel.MAKEFILE}: no `PATCHLEVEL =` line"),
]


@pytest.mark.parametrize("name,changes,expected", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_input_is_an_error_with_file_and_line(name, changes, expected):
    with pytest.raises(SourceError) as caught:
        kernel.parse_kernel(sources(**changes))
    assert str(caught.value).startswith(expected)


def test_command_reports_errors_without_writing(tmp_path, capsys):
    tree = tmp_path / "tree"
    shutil.copytree(TREE, tree)
    (tree / UAS).write_text("UNUSUAL_DEV(0x1, 0x2)\n")
    assert kernel.run_import_kernel(str(tree), tmp_path / "data") == 1
    err = capsys.readouterr().err
    assert f"{UAS}:1: UNUSUAL_DEV has 2 arguments, expected 10" in err and "nothing written" in err
    assert not (tmp_path / "data").exists()


def test_command_writes_then_check_passes_then_detects_edits(tmp_path, capsys):
    data_dir = tmp_path / "data"
    assert kernel.run_import_kernel(str(TREE), data_dir) == 0
    out = capsys.readouterr().out
    assert "unusual_uas.h: 5 entries, unusual_devs.h: 6 entries; 10 distinct USB IDs" in out
    written = data_dir / "kernel" / "linux-6.12.yaml"
    assert written.read_text().startswith(f"# Generated by `uasdb import-kernel {TREE}` from Linux 6.12.0-fixture.")
    assert kernel.run_import_kernel(str(TREE), data_dir, check=True) == 0
    written.write_text(written.read_text().replace("IGNORE_UAS", "NO_SAME", 1))
    assert kernel.run_import_kernel(str(TREE), data_dir, check=True) == 1
    assert "out of date — run `uasdb import-kernel" in capsys.readouterr().err
