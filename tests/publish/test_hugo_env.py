"""Hugo's memory limits (sitebuild.hugo_env): every Hugo process gets them unless the environment says otherwise."""
from uasdb.publish.sitebuild import HUGO_ENV, hugo_env


def test_hugo_gets_the_limits_and_keeps_the_environment():
    env = hugo_env({"PATH": "/usr/bin", "HUGO_CACHEDIR": "/tmp/c"})
    assert {k: env[k] for k in HUGO_ENV} == HUGO_ENV
    assert env["PATH"] == "/usr/bin" and env["HUGO_CACHEDIR"] == "/tmp/c"
    # Hugo prunes its cache above HUGO_MEMORYLIMIT (GiB) and Go collects before GOMEMLIMIT: both under 1 GiB.
    assert float(HUGO_ENV["HUGO_MEMORYLIMIT"]) < 1 and HUGO_ENV["GOMEMLIMIT"].endswith("MiB")
    assert int(HUGO_ENV["GOMEMLIMIT"].removesuffix("MiB")) < 1024


def test_a_limit_set_by_the_maintainer_wins():
    env = hugo_env({"HUGO_MEMORYLIMIT": "4", "GOMEMLIMIT": "3GiB", "GOGC": "100"})
    assert (env["HUGO_MEMORYLIMIT"], env["GOMEMLIMIT"], env["GOGC"]) == ("4", "3GiB", "100")
