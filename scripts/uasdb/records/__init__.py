"""Records: reading, checking and formatting the YAML records, the schema and its vocabulary, the rules, and the reference tables (kernel, usb.ids, smartmontools, linux-hardware.org)."""
