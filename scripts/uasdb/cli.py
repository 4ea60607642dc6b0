"""The `uasdb` command."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__, relax_gc


def _print_problems(problems, out=None) -> None:
    out = out or sys.stdout  # looked up at each call, so output redirected after import (tests) is followed
    current = None
    for problem in problems:
        if problem.file != current:
            if current is not None:
                print(file=out)
            current = problem.file
        print(problem.render(), file=out)


def cmd_validate(args) -> int:
    from .records.database import check
    from .records.problems import count
    result = check([Path(p) for p in args.paths])
    if not result.records and not result.problems:
        where = ", ".join(args.paths) or "data/"
        print(f"validate: no record files under {where} — records are data/adapters/<id>.yaml and "
              "data/chipsets/<id>.yaml; check the path", file=sys.stderr)
        return 1
    _print_problems(result.problems)
    errors, warnings = count(result.problems)
    files = len({p.file for p in result.problems})
    summary = f"{len(result.records)} records checked: {errors} error(s), {warnings} warning(s)"
    if result.problems:
        summary += f" in {files} file(s)"
    if result.waived:
        summary += f"; {len(result.waived)} expected warning(s) waived in data/waivers.yaml"
    print(summary, file=sys.stderr if not errors else sys.stdout)
    return 1 if errors else 0


def cmd_rules(args) -> int:
    from .records.rules import all_rules
    for rule in all_rules():
        fix = " (fixed by `uasdb fmt`)" if rule.fixable else ""
        print(f"{rule.id:31} {rule.severity:8} {rule.scope:8} {rule.description}{fix}")
    return 0


def cmd_verdicts(args) -> int:
    from .records.database import check
    from .verdicts.engine import PLATFORMS, adapter_verdict
    result = check()
    if args.evaluate and not result.errors:
        return _evaluate(result.records, args.json)
    if result.errors:
        _print_problems(result.errors, sys.stderr)
        print("fix the errors above first (`uasdb validate`)", file=sys.stderr)
        return 1
    adapters = {r.data["id"]: r.data for r in result.records if r.kind == "adapter"}
    wanted = args.ids or sorted(adapters)
    unknown = [i for i in wanted if i not in adapters]
    if unknown:
        print(f"no adapter record: {', '.join(unknown)} (ids are the file names in data/adapters/)", file=sys.stderr)
        return 1
    verdicts = {i: adapter_verdict(adapters[i]) for i in wanted}
    if args.json:
        json.dump({i: v.as_dict() for i, v in verdicts.items()}, sys.stdout, indent=2)
        print()
        return 0
    for adapter_id, verdict in verdicts.items():
        listing = verdict.listing or "on no list"
        why = f" ({'; '.join(verdict.reasons)})" if verdict.reasons else ""
        print(f"{adapter_id}: {listing}{why}")
        for kind, per_platform in (("UAS", verdict.uas), ("boot", verdict.boot)):
            for name, platform_verdict in per_platform.items():
                if platform_verdict.verdict == "untested":
                    continue
                extra = f" — {len(platform_verdict.discounted)} not counted" if platform_verdict.discounted else ""
                extra += f" — {len(platform_verdict.unverified)} unverified set aside" if platform_verdict.unverified else ""
                extra += f" ({len(platform_verdict.disagreeing)} of them disagree)" if platform_verdict.disagreeing else ""
                print(f"    {PLATFORMS[name]['label']} {kind}: {platform_verdict.short} · {platform_verdict.basis_text}{extra}")
        for d in verdict.disagreements:
            sides = "; ".join(f"{side['text']} (report{'s' if len(side['reports']) != 1 else ''} "
                              f"{', '.join(f'#{n + 1}' for n in side['reports'])})" for side in d["sides"])
            print(f"    {d['label']} reports disagree: {sides}. {d['explain']}")
        if verdict.unplaced_text:
            print(f"    {verdict.unplaced_text}")
        if all(v.verdict == "untested" for v in [*verdict.uas.values(), *verdict.boot.values()]):
            print("    no report reaches a verdict yet")
        if verdict.quirk_line:
            print(f"    {verdict.quirk_line}")
    return 0


def _evaluate(records, as_json: bool) -> int:
    """`uasdb verdicts --evaluate`: how often an expectation matches the verdict its product's own reports give."""
    from .verdicts.expectations import coverage, evaluate, evaluation_text, related_from_records
    related = related_from_records(records)
    result, products = evaluate(related), coverage(related)
    if as_json:
        json.dump(dict(result, products=products), sys.stdout, indent=2)
        print()
    else:
        print(evaluation_text(result, products))
    return 0


def cmd_fmt(args) -> int:
    from .records.fmt import run_fmt
    return run_fmt([Path(p) for p in args.paths], check_only=args.check)


def cmd_new(args) -> int:
    from .ingest.scaffold import run_new
    return run_new(args.usb, args.name, args.force)


def cmd_export(args) -> int:
    from .publish.export import run_export
    return run_export(Path(args.out), [Path(d) for d in args.data] if args.data else None)


def cmd_import(args) -> int:
    # Generated reference files: data/kernel/, data/usb-ids/, data/smartmontools/ (see docs/kernel.md), data/linuxhw/.
    from .ingest.importers import drivedb, kernel, lsusb, usbids
    from .paths import DATA_DIR
    if args.command == "import-lsusb":
        return lsusb.run_import_lsusb(args.path, DATA_DIR, args.check)
    if args.command == "import-kernel":
        return kernel.run_import_kernel(args.path, DATA_DIR, args.check)
    if args.command == "import-usbids":
        return usbids.run_import_usbids(args.path, DATA_DIR, args.check)
    return drivedb.run_import_drivedb(args.path, DATA_DIR, args.check)


def cmd_from_issue(args) -> int:
    from .ingest.issue import run_from_issue
    return run_from_issue(args.source, args.author, args.date, args.write, args.data, args.issue, args.summary, args.comment)


def cmd_diff(args) -> int:
    from .tools.datadiff import run_diff
    return run_diff(args.base, args.head, Path(args.repo) if args.repo else None)


def cmd_issue_form(args) -> int:
    from .ingest.issueform import run_issue_form, run_probe_form
    from .paths import ISSUE_FORM
    code = run_issue_form(Path(args.file), args.check)
    if code or Path(args.file).resolve() != ISSUE_FORM.resolve():
        return code
    # The probe's copy of the form's facts (probe/reportform.py) follows the form.
    return run_probe_form(args.check)


def cmd_rule_table(args) -> int:
    from .tools.ruletable import run_rule_table
    return run_rule_table(Path(args.file), args.check)


def cmd_field_guide(args) -> int:
    from .tools.fieldguide import run_field_guide
    return run_field_guide(Path(args.out), args.check)


NO_CACHE_HELP = ("parse and check every record afresh, neither reading nor writing .cache/ "
                 "(as UASDB_CACHE=off does; the result is the same, only slower)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="uasdb", description="USB storage adapter compatibility database tools.")
    parser.add_argument("--version", action="version", version=f"uasdb {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("validate", help="check records against the schema and every rule")
    p.add_argument("paths", nargs="*", help="files or folders (default: all of data/)")
    p.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("fmt", help="rewrite records in canonical key order and layout, comments kept")
    p.add_argument("--check", action="store_true", help="change nothing; list files that need formatting, exit 1 if any")
    p.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    p.add_argument("paths", nargs="*", help="files or folders (default: all of data/)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("new", help="scaffold an adapter record for a USB ID, pre-filled from what is known")
    p.add_argument("--usb", required=True, metavar="VID:PID", help="the ID from `lsusb`, e.g. 152d:0578")
    p.add_argument("--name", help="product name, e.g. 'Sabrent EC-SSHD'")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("verdicts", help="print the computed verdicts")
    p.add_argument("ids", nargs="*", help="adapter ids (default: all)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--evaluate", action="store_true",
                   help="measure the expectations by leave-one-out: coverage, agreement per confidence level, "
                        "opposite-direction errors (with --json: one JSON object)")
    p.set_defaults(func=cmd_verdicts)

    # `probe` hands its arguments to the probe package, scripts/uasdb/probe/ (see main()); the site serves the
    # same code as one stand-alone file, /probe.py (uasdb.publish.probebuild).
    sub.add_parser("probe", help="describe this computer's USB storage adapters as a report (stand-alone: probe.py)",
                   add_help=False)

    p = sub.add_parser("from-issue", help="turn an adapter-report issue body into a record or an added report")
    p.add_argument("source", metavar="FILE|-", help="the issue body as GitHub renders it (- for stdin)")
    p.add_argument("--author", help="GitHub login of the issue's author (becomes tested_by)")
    p.add_argument("--date", help="the issue's creation date, YYYY-MM-DD (default: today)")
    p.add_argument("--issue", help="issue number, for the summary")
    p.add_argument("--summary", metavar="FILE", help="write a Markdown summary (the pull request body) here")
    p.add_argument("--comment", metavar="FILE", help="when the issue has problems, write the reply to its author here (Markdown)")
    p.add_argument("--data", metavar="DIR", help="data folder (default: data/)")
    p.add_argument("--write", action="store_true", help="write the record instead of printing it")
    p.set_defaults(func=cmd_from_issue)

    p = sub.add_parser("diff", help="Markdown summary of what changed in data/ since BASE_REF")
    p.add_argument("base", metavar="BASE_REF", help="git ref to compare with, e.g. origin/main")
    p.add_argument("--head", metavar="REF", help="compare this ref instead of the working tree")
    p.add_argument("--repo", metavar="DIR", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("field-guide", help="write docs/fields.md from the schema descriptions")
    p.add_argument("--out", default="docs/fields.md", help="output file (default: docs/fields.md)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if the file is stale")
    p.set_defaults(func=cmd_field_guide)

    p = sub.add_parser("rules", help="list every problem id with its severity, scope and fmt repair")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("issue-form", help="write the issue form's dropdowns from the schema (values, titles, hosts) and the probe's copy of the form's ids")
    p.add_argument("--file", default=".github/ISSUE_TEMPLATE/adapter-report.yml", help="issue form to update")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if the dropdowns are stale")
    p.set_defaults(func=cmd_issue_form)

    p = sub.add_parser("rule-table", help="write the rule tables in docs/rules.md from the rule registry")
    p.add_argument("--file", default="docs/rules.md", help="document holding the tables (default: docs/rules.md)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if the tables are stale")
    p.set_defaults(func=cmd_rule_table)

    p = sub.add_parser("export", help="write the data and verdicts the site and API are built from")
    p.add_argument("--out", default="site/data/generated", help="output folder")
    p.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    p.add_argument("--data", action="append", metavar="DIR",
                   help="record tree holding adapters/ and chipsets/ (default: data/); repeat to combine trees")
    p.set_defaults(func=cmd_export)

    for name, what, path_help in (
            ("import-kernel", "write data/kernel/linux-X.Y.yaml from a kernel source tree or tarball",
             "kernel source folder or tarball, e.g. /usr/src/linux-source-6.12.tar.xz"),
            ("import-usbids", "write data/usb-ids/usb-ids.yaml from usb.ids (after import-kernel and import-drivedb)",
             "usb.ids file (default: /usr/share/misc/usb.ids)"),
            ("import-drivedb", "write data/smartmontools/drivedb-usb.yaml from smartmontools' drivedb.h",
             "drivedb.h (default: /usr/share/smartmontools/drivedb.h)"),
            ("import-lsusb", "write data/linuxhw/lsusb-storage.yaml from the committed linux-hardware.org README snapshot",
             "README snapshot (default: data/linuxhw/README-snapshot.md)")):
        p = sub.add_parser(name, help=what)
        p.add_argument("path", nargs=None if name == "import-kernel" else "?", help=path_help)
        p.add_argument("--check", action="store_true", help="write nothing; exit 1 if the committed file differs from a fresh import")
        p.set_defaults(func=cmd_import)
    return parser


def main(argv: list[str] | None = None) -> int:
    from .records.reference import ReferenceDataError
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["probe"]:  # the probe parses its own options, so `uasdb probe --help` is the probe's
        from .probe.cli import main as probe_main
        return probe_main(argv[1:])
    args = build_parser().parse_args(argv)
    if getattr(args, "no_cache", False):
        os.environ["UASDB_CACHE"] = "off"  # records/cache.py reads it at each use
    relax_gc()
    try:
        return args.func(args)
    except ReferenceDataError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
