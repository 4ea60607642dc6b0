"""Constants and the error type every part of the probe shares."""
from __future__ import annotations

import re

PROBE_VERSION = "1"
SITE_URL = "https://uasdb.github.io"
ISSUE_URL = "https://github.com/uasdb/uasdb/issues/new?template=adapter-report.yml"
REPORT_START = "# ---- uasdb report for {usb_id} ----"
REPORT_END = "# ---- end of uasdb report ----"
SKELETON_START = "# ---- new adapter file data/adapters/{id}.yaml ----"
SKELETON_END = "# ---- end of new adapter file ----"
REPORT_START_RE = re.compile(r"^# ---- uasdb report for ([0-9a-f]{4}:[0-9a-f]{4}) ----\s*$")

MASS_STORAGE_CLASS = 0x08
PROTOCOL_BOT = 0x50       # Bulk-Only Transport: what usb-storage speaks
PROTOCOL_UAS = 0x62       # USB Attached SCSI
LINK_SPEEDS = {"480": "480M", "5000": "5000M", "10000": "10000M", "20000": "20000M"}
STORAGE_DRIVERS = ("uas", "usb-storage")


class ProbeError(Exception):
    """A problem with the environment that the user can act on; printed without a traceback."""
