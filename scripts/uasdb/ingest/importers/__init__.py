"""Importers for what others already know: the kernel's quirk tables, usb.ids and smartmontools' drivedb.h.

Each importer reads an upstream file, refuses anything it cannot read (naming file and line), and
writes a generated, committed YAML file under data/ whose first line says which command made it.
`reference.py` reads those generated files back for the rules and the export.
"""
