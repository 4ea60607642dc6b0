"""uasdb probe: how this computer sees its USB storage adapters, written as a uasdb report.

Python 3.9+ standard library only, no imports from the rest of uasdb. The site build joins
these modules into one stand-alone file (uasdb.publish.probebuild), the /probe.py a person fetches
onto a Raspberry Pi and runs as it is:

    python3 probe.py                      # read-only: sysfs, /proc, dmesg when allowed
    python3 probe.py --handle octocat     # fill in `source: {tested_by: ...}`
    python3 probe.py --open               # also open the report link in the desktop's browser
    python3 probe.py --bench-read /dev/sda --bench-write /mnt/usb   # optional benchmarks

What it reads (Linux): every USB device with a mass-storage interface under
/sys/bus/usb/devices (IDs, bcdDevice, strings, link speed, the driver bound to
each interface, whether the adapter offers UAS at all), the Pi model from the
device tree, the kernel release, /etc/os-release, active usb-storage.quirks
(kernel command line and module parameter), the bootloader build date, and the
uas/usb-storage/reset lines of dmesg when the kernel lets us read them. On macOS
it reads `ioreg` and `system_profiler SPUSBDataType` instead. It never writes to
a device; the optional write benchmark writes one temporary file inside a
directory you name and deletes it.

Modules, in the order the stand-alone file joins them: common (constants), reportform and
formlink (the report form's facts, written by `uasdb issue-form`, and the link that opens it filled in), parsers
(pasted or captured command output; the check page reimplements them in JavaScript, so
each is a few documented regular expressions), system (Env, Device, System), macos and
linux (reading a machine), assess (what the facts say), output (the YAML report and the
offline look-up), bench (optional benchmarks) and cli. Each imports only from the modules
before it.
"""
from __future__ import annotations

from .assess import assess, summary_lines
from .bench import (
    BenchPlan,
    Progress,
    check_bench_targets,
    explain_bench,
    own_random_io,
    own_sequential_read,
    run_benchmarks,
)
from .cli import ProbeResult, main, probe, render
from .common import PROBE_VERSION, REPORT_END, REPORT_START, REPORT_START_RE, SKELETON_END, SKELETON_START, ProbeError
from .linux import NO_UAS_HOSTS, PI_MODELS, host_for, parse_vcgencmd_bootloader
from .output import load_index, slugify, yaml_block, yaml_scalar
from .parsers import (
    bcd_from_dotted,
    find_usb_ids,
    join_macos,
    parse_dmesg,
    parse_ioreg,
    parse_lsusb,
    parse_lsusb_tree,
    parse_lsusb_verbose,
    parse_system_profiler,
    speed_from_text,
    storage_interfaces,
)
from .system import Device, Env, Interface, System

# The package's public names: uasdb.ingest.issue and the tests import them from here.
__all__ = ["assess", "summary_lines", "BenchPlan", "Progress", "check_bench_targets", "explain_bench",
           "own_random_io", "own_sequential_read", "run_benchmarks", "ProbeResult", "main", "probe", "render",
           "PROBE_VERSION", "REPORT_END", "REPORT_START", "REPORT_START_RE", "SKELETON_END", "SKELETON_START",
           "ProbeError", "NO_UAS_HOSTS", "PI_MODELS", "host_for", "parse_vcgencmd_bootloader", "load_index",
           "slugify", "yaml_block", "yaml_scalar", "bcd_from_dotted", "find_usb_ids", "join_macos", "parse_dmesg",
           "parse_ioreg", "parse_lsusb", "parse_lsusb_tree", "parse_lsusb_verbose", "parse_system_profiler",
           "speed_from_text", "storage_interfaces", "Device", "Env", "Interface", "System"]
