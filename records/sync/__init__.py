"""Venue sync: one penalty log for the judge team over the venue's own network (issue 17).

Modules (no Flet anywhere here):
- hlc.py — the hybrid logical clock and the conflict rule (which version is current);
- codes.py — join codes and the signing keys derived from them;
- items.py — a saved version of a shared thing ("record", "event", …) and its JSON body;
- service.py — `SyncService`, what the views and the command line use.

The contract with the views is prompts/sync_contract.md; changes to it are listed here:
- (none yet)
"""
