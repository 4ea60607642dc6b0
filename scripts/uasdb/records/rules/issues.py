"""Problems `uasdb from-issue` finds in an adapter-report issue before it writes a record (issue.py reports them)."""
from . import declare

ISSUE = "issue"

declare("issue-not-a-form", "the issue body has the adapter-report form's `### ` sections", ISSUE,
        example="no section of the adapter-report form found — open the issue from the 'Adapter report' form, or keep its `### ` headings")
declare("issue-missing-section", "every required section of the form is present", ISSUE,
        example="the section `### Computer` is missing — edit the issue and put the heading back with an answer under it")
declare("issue-text", "answers hold no invisible characters that split lines or reorder text, and no merge-conflict "
        "markers", ISSUE,
        example="the answer holds the invisible character U+202E — retype the answer (or paste it as plain text); such characters can split lines or reorder text")
declare("issue-duplicate-section", "each heading of the form appears once (a `### ` heading typed inside an answer "
        "would replace the real answer)", ISSUE,
        example="the heading `### Drive` appears twice (lines 60 and 75), so it is not clear which answer is meant — "
                "edit the issue so `### Drive` appears once; write no `### ` headings inside answers")
declare("issue-choice", "a dropdown answer is one of the form's choices", ISSUE,
        example="`pi 4` is not one of the form's choices — pick one of: pi4, pi400, …")
declare("issue-host", "the computer is given", ISSUE,
        example="the computer is not given — choose it in the Computer dropdown")
declare("issue-usb-id", "a USB ID is given, written as vid:pid", ISSUE,
        example="no USB ID given — copy the `ID vid:pid` part of the `lsusb` line, e.g. 152d:0578")
declare("issue-source", "a source link is an https address that leads where it reads (the check records get)", ISSUE,
        example="`http://example.com` is not an https link — give the page's https:// address")
declare("issue-author", "a test done for the database names its author", ISSUE,
        example="no author known for `tested_by` — run from-issue with --author LOGIN")
declare("issue-quirks", "quirks are written as kernel quirk letters, bare or as the one quirk entry of the report's USB ID",
        ISSUE, example="`152d:0578:u,174c:55aa:k` is not a set of quirk letters for 152d:0578 — write only the letters, "
                       "e.g. u (or the one entry 152d:0578:u)")
declare("issue-consent", "the form's required box (consent to publish) is ticked", ISSUE,
        example="the required box `I tested this myself, …` under `### Publishing` is unticked: without it the report "
                "may not be published — edit the issue and tick the box under `### Publishing` (`- [X] …`), if what it says is true")
declare("issue-lsusb-t", "pasted `lsusb -t` output shows a mass-storage interface", ISSUE,
        example="no `Class=Mass Storage` line in the lsusb -t output — paste the output of `lsusb -t` with the adapter plugged in")
declare("issue-evidence", "a test done for the database comes with evidence", ISSUE,
        example="a test done for the database needs evidence — paste the probe output, or `lsusb -t` output in its section")
declare("issue-evidence-usb-id", "pasted output that names USB IDs names the report's", ISSUE,
        example="the dmesg output shows 174c:55aa, not 152d:0578 (the report's USB ID) — paste the output from when this "
                "adapter was plugged in, or correct the USB ID")
declare("issue-probe-output", "pasted probe output is one whole, unchanged run that covers the adapter", ISSUE,
        example="the probe output has two report blocks for 152d:0578 — paste the output of one probe run, unchanged")
declare("issue-adapter", "`Adapter in uasdb` names one existing adapter (by id, or by its page address on this site), or "
        "the USB ID points at exactly one", ISSUE,
        example="there is no adapter `acme-box` in the database — check the id on the adapter's page, or leave the field empty for a new adapter")
declare("issue-new-adapter", "a new adapter has a product name, a kind and a drive interface, and a new id", ISSUE,
        example="a new adapter needs the kind of product — fill it in, or name an existing adapter in `Adapter in uasdb`")
declare("issue-structure", "the answers change only the record's text, never its structure", ISSUE,
        example="the answers would change the record's structure, not only its text — remove unusual characters (line separators, control characters) from the answers")
