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


@rule("may-be-same-as-mutual", "`may_be_same_as` names other adapter records, and each of them names this one back",
      scope="tree", kinds=("adapter",),
      example="may_be_same_as[0]: intenso-premium-portable-ssd-3823430 does not name intenso-external-ssd-152d-0579 "
              "back — add this id to its `may_be_same_as`")
def may_be_same_as_mutual(records, ctx):
    by_id = {r.data.get("id"): r for r in records if r.kind == "adapter"}
    for record in by_id.values():
        own = record.data.get("id")
        peers = record.data.get("may_be_same_as")
        for index, peer in enumerate(peers if isinstance(peers, list) else []):
            if peer == own:
                yield record, Finding(("may_be_same_as", index), "a record cannot be a possible duplicate of itself",
                                      "remove this entry")
            elif peer not in by_id:
                yield record, Finding(("may_be_same_as", index), f"no adapter record `{peer}`",
                                      "name an existing record's id (see data/adapters/)")
            elif own not in (by_id[peer].data.get("may_be_same_as") or []):
                yield record, Finding(("may_be_same_as", index), f"{peer} does not name {own} back",
                                      f"add `{own}` to the `may_be_same_as` of data/adapters/{peer}.yaml")
