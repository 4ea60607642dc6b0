"""`uasdb probe` on fixture sysfs/proc trees: the report it prints, and how it fails."""
from __future__ import annotations

import ast
import datetime
import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from uasdb import probe
from uasdb.probe import cli as probe_cli
from uasdb.publish.probebuild import BundleError, bundle
from uasdb.records.loader import load_text
from uasdb.records.schema import schema_problems

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "probe"
TREES = FIXTURES / "trees"
COMMANDS = FIXTURES / "commands"
CAPTURED = FIXTURES / "captured"
TODAY = "2026-11-21"


def run_probe(capsys, *args: str) -> tuple:
    code = probe.main(["--date", TODAY, *args])
    out, err = capsys.readouterr()
    return code, out, err


def report_blocks(output: str) -> list[str]:
    """The text between the report markers, as the issue form parser reads it."""
    blocks, current = [], None
    for line in output.splitlines():
        if probe.REPORT_START_RE.match(line):
            current = []
        elif line == probe.REPORT_END and current is not None:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def as_record(report_block: str):
    """Wrap one report block in a minimal valid adapter record and load it with the strict loader."""
    text = ("id: acme-box\nname: Acme Box\nkind: enclosure\ndrive_interface: sata\nreports:\n" + report_block + "\n")
    loaded = load_text("data/adapters/acme-box.yaml", text.encode())
    assert not loaded.problems, [p.render() for p in loaded.problems]
    return loaded


def schema_messages(loaded) -> list[str]:
    return [p.render() for p in schema_problems("adapter", loaded)]


def the_report(capsys, *args: str) -> dict:
    code, out, err = run_probe(capsys, *args)
    assert code == 0, err
    (block,) = report_blocks(out)
    loaded = as_record(block)
    assert schema_messages(loaded) == []
    return loaded.data["reports"][0]


def test_pi4_adapter_on_uas_gives_a_schema_valid_works_report(capsys):
    report = the_report(capsys, "--root", str(TREES / "pi4-uas"), "--captured", str(COMMANDS / "pi4-uas"),
                        "--handle", "octocat")
    assert report["source"] == {"tested_by": "octocat"}
    assert (report["date"], report["host"], report["host_detail"]) == (TODAY, "pi4", "Raspberry Pi 4 Model B Rev 1.4")
    assert (report["usb_id"], report["bcd_device"], report["link_speed"]) == ("152d:0578", "0100", "5000M")
    assert (report["driver"], report["uas"]) == ("uas", "works")
    assert (report["kernel"], report["bootloader"]) == ("6.6.51+rpt-rpi-v8", "2023-01-11")
    assert report["os"] == "Raspberry Pi OS, Debian GNU/Linux 12 (bookworm)"
    assert "scsi host2: uas" in report["evidence"]["dmesg"]
    assert "driver uas disk sdc" in report["evidence"]["probe"]
    assert "offers UAS (descriptors): yes" in report["evidence"]["probe"]


def test_kernel_refusing_uas_is_explained_not_guessed(capsys):
    code, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-kernel-ignores-uas"),
                             "--captured", str(COMMANDS / "pi4-kernel-ignores-uas"), "--handle", "octocat")
    assert code == 0
    report = as_record(report_blocks(out)[0]).data["reports"][0]
    assert report["driver"] == "usb-storage" and "uas" not in report
    assert "offers UAS but usb-storage is bound" in out
    assert "dmesg: UAS blacklisted for 152d:0578 on 2-1" in report["evidence"]["probe"]


def test_users_quirk_line_becomes_works_with_quirk(capsys):
    report = the_report(capsys, "--root", str(TREES / "pi4-user-quirk"), "--handle", "octocat")
    assert (report["driver"], report["uas"], report["quirks"]) == ("usb-storage", "works-with-quirk", "u")
    assert "cmdline usb-storage.quirks=152d:0578:u" in report["evidence"]["probe"]


def test_pi3_reports_host_no_uas(capsys):
    report = the_report(capsys, "--root", str(TREES / "pi3-usb-storage"), "--handle", "octocat")
    assert (report["host"], report["uas"], report["link_speed"]) == ("pi3b-plus", "host-no-uas", "480M")


def test_without_a_handle_the_report_does_not_validate_until_one_is_set(capsys):
    code, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-uas"))
    assert code == 0
    assert "# set tested_by to your GitHub handle" in out
    messages = schema_messages(as_record(report_blocks(out)[0]))
    assert len(messages) == 1 and "reports[0].source.tested_by" in messages[0]


def test_no_usb_storage_is_a_clear_message(capsys):
    code, out, err = run_probe(capsys, "--root", str(TREES / "no-storage"))
    assert (code, out) == (1, "")
    assert "no USB storage device found" in err and "Traceback" not in err


def test_device_unplugged_while_reading_is_noted_not_a_crash(capsys):
    code, _, err = run_probe(capsys, "--root", str(TREES / "unplugged"))
    assert code == 1
    assert "disappeared while it was being read (unplugged?)" in err


def test_not_linux_is_a_clear_message(capsys, tmp_path):
    code, _, err = run_probe(capsys, "--root", str(tmp_path), "--os", "linux")
    assert code == 2
    assert "does not look like a Linux system with sysfs" in err


def test_unreadable_file_is_left_out_with_a_note(capsys, monkeypatch):
    real = Path.read_bytes

    def refuse(self):
        if self.name == "cmdline":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    report = the_report(capsys, "--root", str(TREES / "pi4-user-quirk"), "--handle", "octocat")
    assert "note: cannot read proc/cmdline without root; left out" in report["evidence"]["probe"]
    assert report["quirks"] == "u"  # the module parameter still shows it


def test_dmesg_refused_without_root_tells_the_user_what_to_paste(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "dmesg"
    fake.write_text("#!/bin/sh\necho 'dmesg: read kernel buffer failed: Operation not permitted' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    env = probe.Env(root=TREES / "pi4-uas", live=True)
    assert env.run("dmesg") is None
    assert env.run("lsusb") is None  # not installed: silently absent
    assert "Operation not permitted" in env.notes[0] and "sudo dmesg" in env.notes[0]


def test_unexpected_failure_is_one_line_not_a_traceback(capsys, monkeypatch):
    def broken(env, os_kind=None):
        raise RuntimeError("boom")

    monkeypatch.setattr(probe_cli, "probe", broken)
    code, _, err = run_probe(capsys, "--root", str(TREES / "pi4-uas"))
    assert code == 3
    assert "unexpected RuntimeError: boom" in err and "Traceback" not in err


def test_unknown_usb_id_gets_a_new_adapter_file_that_asks_for_the_missing_facts(capsys, tmp_path):
    (tmp_path / "adapters").mkdir()
    code, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-uas"), "--handle", "octocat", "--data", str(tmp_path))
    assert code == 0
    assert "152d:0578 is not in the database yet" in out
    skeleton = out.split("# ---- new adapter file data/adapters/jmicron-usb3-0-external-hdd.yaml ----\n")[1]
    skeleton = skeleton.split(probe.SKELETON_END)[0]
    loaded = load_text("data/adapters/jmicron-usb3-0-external-hdd.yaml", skeleton.encode())
    assert loaded.problems == []
    fields = [m.group(1) for m in map(lambda s: re.search(r": (\S+):", s), schema_messages(loaded)) if m]
    assert fields == ["drive_interface", "kind"]  # only what a person must decide
    assert loaded.data["usb_ids"] == [{"vid": "152d", "pid": "0578", "manufacturer_string": "JMicron",
                                       "product_string": "USB3.0 External HDD"}]


def test_known_usb_id_links_to_the_adapter_page(capsys, tmp_path):
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "acme-box.yaml").write_text(
        'id: acme-box\nusb_ids:\n  - vid: "152d"\n    pid: "0578"\n', encoding="utf-8")
    code, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-uas"), "--data", str(tmp_path))
    assert code == 0
    assert "# 152d:0578 is in uasdb: acme-box (https://uasdb.github.io/adapters/acme-box/)" in out
    assert probe.SKELETON_END not in out


def test_lookup_in_a_saved_api_file(capsys, tmp_path):
    api = tmp_path / "adapters.json"
    api.write_text(json.dumps({"schema_version": 1, "result": [
        {"id": "acme-box", "usb_ids": [{"vid": "152d", "pid": "0578"}]}]}), encoding="utf-8")
    _, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-uas"), "--api", str(api))
    assert "is in uasdb: acme-box" in out


def test_macos_reads_ioreg_and_system_profiler(capsys, tmp_path):
    shutil.copy(CAPTURED / "seed-ioreg-uas.txt", tmp_path / "ioreg.txt")
    shutil.copy(CAPTURED / "system-profiler-android.txt", tmp_path / "system-profiler.txt")
    code, out, _ = run_probe(capsys, "--os", "macos", "--captured", str(tmp_path), "--handle", "octocat")
    assert code == 0
    loaded = as_record(report_blocks(out)[0])
    assert schema_messages(loaded) == []
    report = loaded.data["reports"][0]
    assert (report["host"], report["usb_id"], report["link_speed"]) == ("macos", "19d2:ffb0", "480M")
    assert "driver" not in report
    assert "ioreg shows no storage driver" in report["evidence"]["probe"]


def test_macos_ioreg_with_properties_alone_names_the_uas_driver(capsys, tmp_path):
    (tmp_path / "ioreg.txt").write_text(
        '+-o ASM1153E@14500000  <class IOUSBHostDevice, id 0x1>\n  |   "idVendor" = 5964\n  |   "idProduct" = 21930\n'
        '  +-o IOUSBMassStorageUASDriver  <class IOUSBMassStorageUASDriver, id 0x2>\n', encoding="utf-8")
    report = the_report(capsys, "--os", "macos", "--captured", str(tmp_path), "--handle", "octocat")
    assert (report["usb_id"], report["driver"]) == ("174c:55aa", "uas")


def test_json_facts(capsys):
    code, out, _ = run_probe(capsys, "--root", str(TREES / "pi4-uas"), "--json")
    facts = json.loads(out)
    assert code == 0
    assert facts["system"]["host"] == "pi4"
    assert [(d["usb_id"], d["driver"], d["speed"], d["offers_uas"]) for d in facts["devices"]] == \
        [("152d:0578", "uas", "5000M", True)]


@pytest.mark.parametrize("model, arch, host", [
    ("Raspberry Pi 4 Model B Rev 1.4", "aarch64", "pi4"),
    ("Raspberry Pi 400 Rev 1.0", "aarch64", "pi400"),
    ("Raspberry Pi Compute Module 4 Rev 1.0", "aarch64", "cm4"),
    ("Raspberry Pi 5 Model B Rev 1.0", "aarch64", "pi5"),
    ("Raspberry Pi 500 Rev 1.0", "aarch64", "pi500"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "aarch64", "cm5"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "armv7l", "pi3b-plus"),
    ("Raspberry Pi 3 Model B Rev 1.2", "armv7l", "pi3"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "aarch64", "pi-zero-2"),
    ("Raspberry Pi Model B Rev 2", "armv6l", "pi-older"),
    (None, "x86_64", "linux-x86_64"),
    (None, "aarch64", "linux-arm64"),
    ("Hardkernel Odroid XU4", "armv7l", "linux-armhf"),
    (None, "armv6l", "linux-armhf"),
    (None, "riscv64", None),
])
def test_host_from_the_device_tree_model(model, arch, host):
    assert probe.host_for(model, arch) == host


def test_assess_no_uas_adapter():
    device = probe.Device(port="2-1", vid="152d", pid="0578", speed="5000M", offers_uas=False,
                          interfaces=[probe.Interface("2-1:1.0", 8, 0x50, "usb-storage")])
    finding = probe.assess(device, probe.System(os_kind="linux", host="pi4"))
    assert finding.fields == {"link_speed": "5000M", "driver": "usb-storage", "uas": "device-no-uas"}


def test_assess_uas_with_resets_leaves_the_verdict_to_the_person():
    device = probe.Device(port="2-1", vid="152d", pid="0578", interfaces=[probe.Interface("2-1:1.0", 8, 0x62, "uas")])
    system = probe.System(os_kind="linux", host="pi4", dmesg=probe.parse_dmesg(
        "[ 9.1] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
        "[ 9.2] hwmon hwmon1: Undervoltage detected!\n"))
    finding = probe.assess(device, system)
    assert "uas" not in finding.fields
    assert "power, reset" in finding.comments["stability"] and "blamed_on" in finding.comments


@pytest.mark.parametrize("text", [
    "plain line", "  starts with spaces\nsecond", "tab\there", "trailing spaces   \n\nafter a blank line",
    "quotes \" and ' and: colons # hash", "ünïcödé ✓",
])
def test_yaml_block_keeps_evidence_verbatim(text):
    block = "\n".join(["evidence:", "  probe: " + "\n".join(probe.yaml_block(text, 4))])
    loaded = load_text("x.yaml", block.encode())
    assert loaded.problems == []
    assert loaded.data["evidence"]["probe"] == text.replace("\t", "    ").rstrip("\n")


@pytest.mark.parametrize("value", ["2026-11-21", "6.6.51+rpt-rpi-v8", "0100", "yes", "152d:0578", "a: b", "5000M", "pi4"])
def test_yaml_scalar_reads_back_as_the_same_text(value):
    loaded = load_text("x.yaml", f"key: {probe.yaml_scalar(value)}\n".encode())
    assert loaded.problems == [] and loaded.data["key"] == value


def _probe_in_process(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """`python -m uasdb.probe ARGS` as probe_cli.main(ARGS) in this process, run in `cwd`, its output captured."""
    import contextlib
    import io
    out, err, before = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = probe_cli.main(args)
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_probe_py_is_stand_alone(tmp_path):
    """The file the site serves as /probe.py: only the standard library, Python 3.9 syntax, no package-relative
    imports, and it runs from a bare copy with -I (isolated) exactly as the package does."""
    source = bundle()
    tree = ast.parse(source, feature_version=(3, 9))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert all(name in sys.stdlib_module_names or name == "__future__" for name in imported), imported
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))  # no package-relative imports
    copy = tmp_path / "probe.py"
    copy.write_text(source, encoding="utf-8")
    outputs = {}
    for number, fixture in enumerate(sorted(TREES.iterdir())):
        args = ["--root", str(fixture), "--handle", "octocat", "--data", str(HERE.parent / "data")]
        done = subprocess.run([sys.executable, "-I", str(copy), *args], capture_output=True, text=True, cwd=tmp_path,
                              timeout=60)
        if number == 0:  # `python -m uasdb.probe` itself, once
            package = subprocess.run([sys.executable, "-m", "uasdb.probe", *args], capture_output=True, text=True,
                                     cwd=tmp_path, timeout=60, env={**os.environ, "PYTHONPATH": str(HERE.parent / "scripts")})
        else:  # the package's own main() in this process, its output captured (no interpreter to start)
            package = _probe_in_process(args, cwd=tmp_path)
        assert (done.returncode, done.stdout, done.stderr) == (package.returncode, package.stdout, package.stderr), fixture.name
        outputs[fixture.name] = done.stdout
    assert "- date: " in outputs["pi4-uas"] and "uas: works" in outputs["pi4-uas"]


def test_bundle_refuses_a_module_it_cannot_carry(tmp_path, monkeypatch):
    """A module that imports from outside the standard library, or from a module joined after it, would break the
    stand-alone file on a user's Pi: the site build stops with a message naming the module instead."""
    from uasdb.publish import probebuild
    package = tmp_path / "probe"
    shutil.copytree(probebuild.PACKAGE, package)
    monkeypatch.setattr(probebuild, "PACKAGE", package)
    parsers = package / "parsers.py"
    original = parsers.read_text(encoding="utf-8")
    parsers.write_text(original.replace("import re\n", "import re\nimport yaml\n", 1), encoding="utf-8")
    with pytest.raises(BundleError, match=r"probe/parsers.py imports yaml: the stand-alone probe may use the standard library only"):
        bundle()
    parsers.write_text(original.replace("import re\n", "import re\nfrom .cli import main\n", 1), encoding="utf-8")
    with pytest.raises(BundleError, match=r"probe/parsers.py imports from .cli, which does not come before it"):
        bundle()


def test_uasdb_cli_passes_arguments_to_the_probe(capsys):
    from uasdb.cli import main
    code = main(["probe", "--root", str(TREES / "pi4-uas"), "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["devices"][0]["usb_id"] == "152d:0578"


# --- benchmarks -----------------------------------------------------------------------------------

def test_benchmark_targets_are_checked_before_anything_runs(disk_tmp_path):
    tmp_path = disk_tmp_path  # the probe refuses to write under /dev, where make check may keep tmp_path
    regular = tmp_path / "file"
    regular.write_bytes(b"x")
    with pytest.raises(probe.ProbeError, match="not a block device"):
        probe.check_bench_targets(probe.BenchPlan(str(regular), None, 1, 0.1))
    with pytest.raises(probe.ProbeError, match="never a device"):
        probe.check_bench_targets(probe.BenchPlan(None, "/dev/sda", 1, 0.1))
    with pytest.raises(probe.ProbeError, match="never a device or file"):
        probe.check_bench_targets(probe.BenchPlan(None, str(regular), 1, 0.1))
    with pytest.raises(probe.ProbeError, match="not a directory"):
        probe.check_bench_targets(probe.BenchPlan(None, str(tmp_path / "missing"), 1, 0.1))
    probe.check_bench_targets(probe.BenchPlan(None, str(tmp_path), 1, 0.1))


def test_benchmarks_are_explained_before_they_run():
    text = "\n".join(probe.explain_bench(probe.BenchPlan("/dev/sda", "/mnt/usb", 512, 10)))
    assert "Read-only" in text and "temporary file in /mnt/usb" in text and "delete it" in text


def test_own_reader_and_writer_measure_and_clean_up(tmp_path):
    # Each random-I/O loop runs for the plan's seconds, on the CPU: 0.05 s is enough to prove it measures and cleans up.
    results = probe.run_benchmarks(probe.BenchPlan(None, str(tmp_path), 4, 0.05), progress_enabled=False, use_tools=False)
    assert [r["test"] for r in results] == ["seq-write", "rand4k-write"]
    assert all(r["value"] > 0 and r["unit"] == "MB/s" and r["tool"] == "other" for r in results)
    assert list(tmp_path.iterdir()) == []  # the temporary file is gone
    source = tmp_path / "disk.img"
    source.write_bytes(os.urandom(2 * 1024 * 1024))
    speed, note = probe.own_sequential_read(str(source), 2 * 1024 * 1024, probe.Progress("seq-read", False))
    assert speed > 0 and "2 MiB" in note
    speed, note = probe.own_random_io(str(source), 2 * 1024 * 1024, 0.05, probe.Progress("rand4k-read", False))
    assert speed > 0


def test_throughput_entries_fit_the_schema(capsys, monkeypatch):
    monkeypatch.setattr(probe_cli, "run_benchmarks", lambda plan, progress_enabled=True: [
        {"tool": "other", "test": "seq-read", "value": 301.5, "unit": "MB/s", "note": "uasdb probe reader"}])
    monkeypatch.setattr(probe_cli, "check_bench_targets", lambda plan: None)
    report = the_report(capsys, "--root", str(TREES / "pi4-uas"), "--handle", "octocat", "--bench-read", "/dev/sdc", "--yes")
    assert report["throughput"] == [{"tool": "other", "test": "seq-read", "value": 301.5, "unit": "MB/s",
                                     "note": "uasdb probe reader"}]


def test_device_lost_during_a_benchmark_is_reported_as_a_finding(tmp_path, monkeypatch):
    def fail(fd, buffers):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "writev", fail)
    with pytest.raises(probe.ProbeError, match="unplugged or reset"):
        probe.run_benchmarks(probe.BenchPlan(None, str(tmp_path), 1, 0.1), progress_enabled=False, use_tools=False)
    assert list(tmp_path.iterdir()) == []


def test_benchmarks_need_confirmation_without_a_terminal(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(probe_cli, "check_bench_targets", lambda plan: None)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    code, out, err = run_probe(capsys, "--root", str(TREES / "pi4-uas"), "--bench-write", str(tmp_path))
    assert code == 0 and "throughput" not in out
    assert "not running the benchmarks" in err


def test_today_default_is_a_real_date(capsys):
    assert probe.main(["--root", str(TREES / "pi4-uas"), "--json"]) == 0
    capsys.readouterr()
    assert datetime.date.today().isoformat()


def test_bootloader_from_vcgencmd_when_the_device_tree_has_none(capsys, tmp_path):
    shutil.copy(CAPTURED / "ironsheep-91-vcgencmd-bootloader-version.txt", tmp_path / "vcgencmd-bootloader.txt")
    report = the_report(capsys, "--root", str(TREES / "pi4-user-quirk"), "--captured", str(tmp_path), "--handle", "octocat")
    assert report["bootloader"] == "2023-01-11"


@pytest.mark.parametrize("where", ["/dev", "/dev/", "/proc", "/sys/block"])
def test_write_benchmark_refuses_system_folders(where):
    with pytest.raises(probe.ProbeError, match="never a device or file"):
        probe.check_bench_targets(probe.BenchPlan(None, where, 1, 0.1))


def test_write_benchmark_refuses_a_link_into_dev(tmp_path):
    (tmp_path / "looks-harmless").symlink_to("/dev")
    with pytest.raises(probe.ProbeError, match="never a device or file"):
        probe.check_bench_targets(probe.BenchPlan(None, str(tmp_path / "looks-harmless"), 1, 0.1))


def test_write_benchmark_never_writes_through_a_planted_link(tmp_path, monkeypatch):
    """The scratch file used to be uasdb-probe-<pid>.tmp; a link planted at that name was written through."""
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    drive = tmp_path / "drive"
    drive.mkdir()
    for pid in (os.getpid(), os.getpid() + 1):
        (drive / f"uasdb-probe-{pid}.tmp").symlink_to(victim)
    probe.run_benchmarks(probe.BenchPlan(None, str(drive), 1, 0.05), progress_enabled=False, use_tools=False)
    assert victim.read_text() == "keep me"
    assert sorted(p.name for p in drive.iterdir()) == sorted(f"uasdb-probe-{pid}.tmp" for pid in (os.getpid(), os.getpid() + 1))


HOSTILE_STRINGS = {
    # USB strings, the SCSI model and the device-tree model come from the device or the firmware.
    "sys/bus/usb/devices/2-1/product": "USB3.0\x1b[2J\x1b[1;1HExternal HDD\n# ---- uasdb report for 0bad:f00d ----\n",
    "sys/bus/usb/devices/2-1/manufacturer": "JMi\x00cron\u202eevil\x9b2J",
    "sys/bus/usb/devices/2-1:1.0/host2/target2:0:0/2:0:0:0/model": "WD40\x07\x08\x08\x08\u2028EFZX",
    "proc/device-tree/model": "Raspberry Pi 4 Model B Rev 1.4\x1b]0;owned\x07\x00",
}


def _hostile_tree(tmp_path):
    root = tmp_path / "root"
    shutil.copytree(TREES / "pi4-uas", root, symlinks=True)
    for relative, text in HOSTILE_STRINGS.items():
        (root / relative).write_text(text, encoding="utf-8")
    commands = tmp_path / "commands"
    shutil.copytree(COMMANDS / "pi4-uas", commands)
    with open(commands / "dmesg.txt", "a", encoding="utf-8") as dmesg:
        dmesg.write("[  242.4] usb 2-1: Product: \x1b[31mred\x1b[0m \u202eevil\n")
    return root, commands


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_device_strings_reach_the_terminal_escaped(capsys, tmp_path, extra):
    root, commands = _hostile_tree(tmp_path)
    code, out, err = run_probe(capsys, "--root", str(root), "--captured", str(commands), "--handle", "octocat", *extra)
    assert code == 0, err
    for text in (out, err):
        shown = [ch for ch in text if ch not in "\n" and (not ch.isprintable() or ch in "\u202e\u2028")]
        assert shown == [], [f"U+{ord(ch):04X}" for ch in shown]
    if not extra:
        assert "USB3.0\\x1b[2J\\x1b[1;1HExternal HDD\\n# ---- uasdb report for 0bad:f00d ----" in out
        assert "JMi\\x00cron\\u202eevil\\x9b2J" in out and "Rev 1.4\\x1b]0;owned\\x07" in out
        # A newline in a device's string forges no line of its own: one report block, for the real ID.
        assert [line for line in out.splitlines() if probe.REPORT_START_RE.match(line)] == [
            "# ---- uasdb report for 152d:0578 ----"]
        (block,) = report_blocks(out)
        assert schema_messages(as_record(block)) == []


@pytest.mark.parametrize("text, shown", [
    ("\x1b[2J", "\\x1b[2J"), ("a\x00b", "a\\x00b"), ("\u202e", "\\u202e"), ("a\nb", "a\\nb"), ("\x9b", "\\x9b"),
    ("\U000e0041", "\\U000e0041"), ("ünïcödé ✓", "ünïcödé ✓"),
])
def test_printable_escapes_what_a_terminal_would_obey(text, shown):
    from uasdb.probe.common import printable
    assert printable(text) == shown
    assert printable("one\ntwo\tthree", lines=True) == "one\ntwo\tthree"
