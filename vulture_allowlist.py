"""Names `make lint`'s dead-code check (vulture, pyproject.toml) must not report, each with why it is used.
The rules in records/rules/ are registered by their @rule decorator and test functions by pytest (both ignored in
pyproject.toml); what is left here is called by a library or published on purpose."""
# http.server calls these on the loopback server's handler (publish/sitebuild.py) and the benchmark's (tests).
log_message  # noqa
list_directory  # noqa
# ruamel.yaml reads this attribute of the YAML object fmt configures (records/fmt.py).
preserve_quotes  # noqa
# A module-level __getattr__ (PEP 562) answers kernel_flags.<NAME> lookups (records/kernel_flags.py).
__getattr__  # noqa
# The probe is published as one file people read (/probe.py): the Bulk-Only protocol code sits beside the UAS one as
# documentation, and a device's SCSI models are part of the Device a reader of probe.py meets.
PROTOCOL_BOT  # noqa
scsi_models  # noqa
# The engine names both directions a finding can point (engine.py, rule 6); only the failures are looked up.
SUCCESSES  # noqa
# pytest hooks' and signal handlers' parameters are named by their callers; crawl.py's parser overrides this method.
nextitem  # noqa
exitstatus  # noqa
signum  # noqa
buffers  # noqa  (a stand-in for os.writev(fd, buffers) in test_probe.py)
longrepr  # noqa
handle_starttag  # noqa
# tests/test_linear_patterns.py: _module_units(module_name) is called per module and does not use the name yet (issue 39).
module_name  # noqa
