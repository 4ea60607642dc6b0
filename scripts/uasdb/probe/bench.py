"""Optional benchmarks. Reads come from the block device (read-only); writes go to one file in a directory
the user names, never to a device."""
from __future__ import annotations

import json
import mmap
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from .common import ProbeError


@dataclass
class BenchPlan:
    read_device: Optional[str]
    write_dir: Optional[str]
    size_mib: int
    seconds: float


def explain_bench(plan: BenchPlan) -> List[str]:
    lines = ["Benchmarks (optional; they take a minute or two):"]
    if plan.read_device:
        lines.append(f"  - read {plan.size_mib} MiB sequentially from {plan.read_device}, then random 4 KiB reads for "
                     f"{plan.seconds:g} s. Read-only: nothing on the disk changes.")
    if plan.write_dir:
        lines.append(f"  - write a {plan.size_mib} MiB temporary file in {plan.write_dir}, then random 4 KiB writes into "
                     f"that file for {plan.seconds:g} s, and delete it. Nothing else is written.")
    lines.append("  Uses fio when installed, hdparm for the sequential read when fio is not, else the probe's own reader.")
    return lines


def check_bench_targets(plan: BenchPlan) -> None:
    """Refuse anything that could damage data before a single byte moves."""
    if plan.read_device:
        try:
            mode = os.stat(plan.read_device).st_mode
        except OSError as exc:
            raise ProbeError(f"--bench-read {plan.read_device}: {exc.strerror}") from None
        if not stat.S_ISBLK(mode):
            raise ProbeError(f"--bench-read {plan.read_device} is not a block device; name the disk, e.g. /dev/sda")
        if not os.access(plan.read_device, os.R_OK):
            raise ProbeError(f"cannot read {plan.read_device} as this user; run the probe with sudo for the read benchmark")
    if plan.write_dir:
        target = Path(plan.write_dir)
        real = os.path.realpath(plan.write_dir)
        if any(real == top or real.startswith(top + "/") for top in ("/dev", "/proc", "/sys", "/run")) \
                or (target.exists() and not target.is_dir()):
            raise ProbeError(f"--bench-write {plan.write_dir}: give a directory on a mounted filesystem, never a device or file")
        if not target.is_dir():
            raise ProbeError(f"--bench-write {plan.write_dir} is not a directory; mount the drive and name a folder on it")
        if not os.access(target, os.W_OK):
            raise ProbeError(f"cannot write in {plan.write_dir} as this user; pick a folder you own on the drive")
        free = shutil.disk_usage(target).free
        if free < (plan.size_mib + 64) * 1024 * 1024:
            raise ProbeError(f"{plan.write_dir} has {free // (1024 * 1024)} MiB free; the write test needs {plan.size_mib + 64} MiB")


class Progress:
    """One updating line on stderr, at most a few times a second."""

    def __init__(self, label: str, enabled: bool = True) -> None:
        self.label, self.enabled, self.last = label, enabled, time.monotonic()

    def update(self, done: int, total: Optional[int], started: float) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.5:
            return
        self.last = now
        rate = done / max(now - started, 1e-6) / 1e6
        amount = f"{done // (1024 * 1024)}/{total // (1024 * 1024)} MiB" if total else f"{done // 1024} KiB"
        sys.stderr.write(f"\r  {self.label}: {amount}, {rate:.1f} MB/s   ")
        sys.stderr.flush()

    def finish(self, text: str) -> None:
        if self.enabled:
            sys.stderr.write(f"\r  {self.label}: {text}{' ' * 20}\n")
            sys.stderr.flush()


def _aligned_buffer(size: int) -> mmap.mmap:
    return mmap.mmap(-1, size)  # page-aligned, as O_DIRECT requires


def _open_direct(path: str, flags: int) -> Tuple[int, bool]:
    """Open with O_DIRECT (bypass the page cache) when the filesystem allows it."""
    direct = getattr(os, "O_DIRECT", 0)
    if direct:
        try:
            return os.open(path, flags | direct), True
        except OSError:
            pass
    return os.open(path, flags), False


def _timed(path: str, flags: int, block: int, progress: Progress,
           loop: Callable[[int, mmap.mmap], Tuple[int, float]], fill: bool = False) -> Tuple[float, int, bool]:
    """Open `path` (O_DIRECT when allowed) with one page-aligned buffer of `block` bytes (random bytes when
    `fill`), run `loop(fd, buffer)`, which returns the bytes moved and when it started timing, and close both
    whatever happens. Returns MB/s, the bytes moved and whether O_DIRECT was used."""
    fd, direct = _open_direct(path, flags)
    buffer = _aligned_buffer(block)
    if fill:
        buffer.write(os.urandom(block))
    try:
        done, started = loop(fd, buffer)
        elapsed = max(time.monotonic() - started, 1e-6)
    finally:
        os.close(fd)
        buffer.close()
    progress.finish(f"{done / elapsed / 1e6:.1f} MB/s")
    return done / elapsed / 1e6, done, direct


def own_sequential_read(path: str, size: int, progress: Progress, block: int = 1024 * 1024) -> Tuple[float, str]:
    """MB/s reading `size` bytes from the start of `path` in 1 MiB blocks."""
    def loop(fd: int, buffer: mmap.mmap) -> Tuple[int, float]:
        end = min(size, os.lseek(fd, 0, os.SEEK_END))
        os.lseek(fd, 0, os.SEEK_SET)
        done, started = 0, time.monotonic()
        while done < end:
            got = os.readv(fd, [buffer])
            if got <= 0:
                break
            done += got
            progress.update(done, end, started)
        return done, started

    speed, done, direct = _timed(path, os.O_RDONLY, block, progress, loop)
    return speed, f"uasdb probe reader, {block // 1024} KiB blocks, {done // (1024 * 1024)} MiB" + (", O_DIRECT" if direct else ", page cache not bypassed")


def own_random_io(path: str, span: int, seconds: float, progress: Progress, write: bool = False) -> Tuple[float, str]:
    """MB/s of 4 KiB reads (or writes) at random 4 KiB-aligned offsets within the first `span` bytes."""
    block = 4096
    rng = random.Random(4096)

    def loop(fd: int, buffer: mmap.mmap) -> Tuple[int, float]:
        blocks = max(min(span, os.lseek(fd, 0, os.SEEK_END)) // block, 1)
        done, started = 0, time.monotonic()
        while time.monotonic() - started < seconds:
            os.lseek(fd, rng.randrange(blocks) * block, os.SEEK_SET)
            moved = os.writev(fd, [buffer]) if write else os.readv(fd, [buffer])
            if moved <= 0:
                break
            done += moved
            progress.update(done, None, started)
        if write:
            os.fsync(fd)
        return done, started

    flags = (os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)) if write else os.O_RDONLY
    speed, _, direct = _timed(path, flags, block, progress, loop, fill=write)
    return speed, f"uasdb probe, queue depth 1, {seconds:g} s" + (", O_DIRECT" if direct else ", page cache not bypassed")


def own_sequential_write(path: str, size: int, progress: Progress, block: int = 1024 * 1024) -> Tuple[float, str]:
    def loop(fd: int, buffer: mmap.mmap) -> Tuple[int, float]:
        done, started = 0, time.monotonic()
        while done < size:
            done += os.writev(fd, [buffer])
            progress.update(done, size, started)
        os.fsync(fd)
        return done, started

    speed, _, direct = _timed(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, block, progress, loop, fill=True)
    return speed, f"uasdb probe writer, {block // 1024} KiB blocks, {size // (1024 * 1024)} MiB, fsync" + (", O_DIRECT" if direct else "")


def fio_run(args: List[str]) -> Optional[float]:
    """MB/s from one fio job (JSON output), or None when fio fails."""
    try:
        done = subprocess.run(["fio", "--output-format=json", *args], capture_output=True, text=True, timeout=600)
        job = json.loads(done.stdout)["jobs"][0]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError):
        return None
    side = job["write"] if job["write"]["io_bytes"] else job["read"]
    return side["bw_bytes"] / 1e6 if side.get("bw_bytes") else None


def hdparm_read(device: str) -> Optional[float]:
    try:
        done = subprocess.run(["hdparm", "-t", device], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"=\s*([\d.]+)\s*MB/sec", done.stdout)
    return float(match.group(1)) if match else None


def run_benchmarks(plan: BenchPlan, progress_enabled: bool = True, use_tools: bool = True) -> List[Dict[str, Any]]:
    """Throughput entries in schema form. An I/O error (a device unplugged or reset mid-run) ends the
    benchmarks with a ProbeError that says so."""
    results: List[Dict[str, Any]] = []
    size = plan.size_mib * 1024 * 1024
    fio = use_tools and shutil.which("fio") is not None
    hdparm = use_tools and shutil.which("hdparm") is not None

    def add(test: str, value: Optional[float], tool: str, note: str) -> None:
        if progress_enabled and tool != "other":  # fio and hdparm print nothing while they run
            sys.stderr.write(f"  {test} ({tool}): {f'{value:.1f} MB/s' if value else 'failed'}\n")
        if value:
            results.append({"tool": tool, "test": test, "value": round(value, 1), "unit": "MB/s", "note": note})

    try:
        if plan.read_device:
            if fio:
                add("seq-read", fio_run(["--name=seq-read", f"--filename={plan.read_device}", "--readonly", "--rw=read",
                                         "--bs=1M", f"--size={plan.size_mib}M", "--direct=1"]), "fio", f"bs=1M, {plan.size_mib} MiB, direct")
                add("rand4k-read", fio_run(["--name=rand4k-read", f"--filename={plan.read_device}", "--readonly", "--rw=randread",
                                            "--bs=4k", f"--size={plan.size_mib}M", "--direct=1", "--time_based",
                                            f"--runtime={plan.seconds:g}"]), "fio", "bs=4k, iodepth=1, direct")
            else:
                if hdparm:
                    add("seq-read", hdparm_read(plan.read_device), "hdparm", "hdparm -t")
                else:
                    value, note = own_sequential_read(plan.read_device, size, Progress("seq-read", progress_enabled))
                    add("seq-read", value, "other", note)
                value, note = own_random_io(plan.read_device, size * 4, plan.seconds, Progress("rand4k-read", progress_enabled))
                add("rand4k-read", value, "other", note)
        if plan.write_dir:
            # An unpredictable name, created here (O_EXCL): nobody can plant a link for the test to write through.
            handle, scratch = tempfile.mkstemp(prefix="uasdb-probe-", suffix=".tmp", dir=plan.write_dir)
            os.close(handle)
            try:
                if not fio:
                    os.unlink(scratch)  # own_sequential_write creates it again, exclusively
                if fio:
                    add("seq-write", fio_run(["--name=seq-write", f"--filename={scratch}", "--rw=write", "--bs=1M",
                                              f"--size={plan.size_mib}M", "--direct=1", "--end_fsync=1"]), "fio",
                        f"bs=1M, {plan.size_mib} MiB file, direct")
                    add("rand4k-write", fio_run(["--name=rand4k-write", f"--filename={scratch}", "--rw=randwrite", "--bs=4k",
                                                 f"--size={plan.size_mib}M", "--direct=1", "--time_based",
                                                 f"--runtime={plan.seconds:g}", "--end_fsync=1"]), "fio", "bs=4k, iodepth=1, direct, file")
                else:
                    value, note = own_sequential_write(scratch, size, Progress("seq-write", progress_enabled))
                    add("seq-write", value, "other", note)
                    value, note = own_random_io(scratch, size, plan.seconds, Progress("rand4k-write", progress_enabled), write=True)
                    add("rand4k-write", value, "other", note + ", in a file")
            finally:
                try:
                    os.unlink(scratch)
                except OSError:
                    pass
    except OSError as exc:
        raise ProbeError(f"the benchmark stopped with an I/O error ({exc.strerror or exc}): the drive was unplugged "
                         "or reset. Check `dmesg` and mention it in the report; that is a finding too.") from None
    return results
