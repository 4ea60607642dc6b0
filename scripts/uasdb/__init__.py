"""uasdb: validator, verdict engine and tooling for the USB storage adapter compatibility database."""

__version__ = "0.1.0"
