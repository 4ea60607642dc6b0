"""References between records."""
from ..problems import Finding
from . import rule


@rule("chipset-exists", "`chipset` names a record in data/chipsets/",
      example='no chipset record `jms587` — did you mean `jms578`? add data/chipsets/jms587.yaml or leave `chipset` out')
def chipset_exists(record, ctx):
    chipset = record.data.get("chipset")
    if chipset is not None and chipset not in ctx.chipset_ids:
        from ..schema import _suggest
        hint = _suggest(chipset, sorted(ctx.chipset_ids))
        yield Finding(("chipset",), f"no chipset record `{chipset}`",
                      (hint + " " if hint else "") + f"add data/chipsets/{chipset}.yaml or leave `chipset` out if unknown")
