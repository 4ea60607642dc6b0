"""`python -m uasdb.probe`: the same as running the stand-alone probe.py."""
import sys

from .cli import main

sys.exit(main())
