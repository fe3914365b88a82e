"""Venue sync: one penalty log for the judge team over the venue's own network (issue 17).

Modules (no Flet anywhere here; the design and the security note: docs/sync.md):
- hlc.py — the hybrid logical clock and the conflict rule (which version is current);
- items.py — a saved version of a shared thing ("record", "event"; more kinds later) and its
  canonical JSON body; versions.py — the table of every version (schema 4: item_versions);
- local.py — this device (id, judge name) and the version each local save writes;
- codes.py — join codes and the signing keys derived from them;
- protocol.py — the signed request/answer (one POST a page, each way), limits and checks;
- server.py — the host (ThreadingHTTPServer, only while hosting); client.py — the joiner;
- addresses.py — the local network's addresses, found without sending a packet;
- state.py — what a device remembers (role, event, host, code, cursors) in its settings;
- ledger.py — what sync reads and writes in the log (made by `LogStore.ledger()`);
- service.py — `SyncService`, what the views and the command line use.
The merge that file import and sync share is records/merge.py (`apply`).

The contract with the views is prompts/sync_contract.md. Refinements (the shape is kept):
- `SyncStatus`, `SyncResult`, `DeviceSeen`, `SyncService` are as in the contract.
- `SyncService.host(..., code=None)`: the command line's `--code` (a given code).
- `SyncService.status(stored=False)`: `stored=True` reports the saved role (the command line's
  `sync status`, while another process hosts); the app uses the default (what runs here).
- `SyncService.close()`: stops this process's server and background loop, keeping the saved
  state (the app calls it on exit; the next start may resume hosting with the same code).
- `SyncService.notify_saved()` exists, but a service also hears every save of its store by
  itself (`LogStore.add_save_listener`): views need not call it.
- `SyncService.subscribe(callback)`: called from a sync thread (never Flet's). On a joined
  device: after records were pulled, or the problem changed. On the host: when a device pushed
  records, appeared or changed its judge's name (not on every request: a screen showing "last
  seen N s ago" refreshes that on its own timer). Also after a judge's name is set.
- `move_into_shared(local_event_id)` copies the local event's live records into the shared
  event (each copy's id derived from the original's: moving twice doubles nothing) and deletes
  the originals (restorable; their versions stay).
- A joined device's shared event becomes its current event after the first sync; hosting makes
  the hosted event current.
- Store: `Record.recorded_by` (who first recorded it; None before sync),
  `LogStore.record_versions(record_id)` oldest first, the last one `current`;
  `RecordVersion.recorded_by` is who saved that version; `LogStore.export_versions(event_id)`
  for JSON exports (pass it to `exchange.export_json`, format 2).
"""
