"""The penalty log: events, players and the penalties a judge records, on SQLite. No Flet here.

The view layer calls `records.store.LogStore` (synchronous, thread-safe, typed), a thin front
over one module per job; everything it returns is a frozen dataclass of `records.model`.
Which module owns which table (docs/architecture.md):

- `opening`: the file — connection settings, a damaged or foreign file set aside, migrations
  (`schema`: the tables themselves and PRAGMA user_version); `faults`: one line per failure;
  `database`: the one connection, its transactions and row caches.
- `events`: tables `events` and `rounds`, and the `settings` row naming the current event.
- `players`: table `players` (each written form of a player, with the identity keys).
- `history`: table `records` — saving, editing, tombstones, reading pages, repeats, tardiness.
- `merge`: writes all three of `events`/`rounds`, `players` and `records` for an import (and
  venue sync), through `events` and `history`; the merge rule lives there alone.

Pure helpers sit beside them: player identity (`identity`), tardiness (`tardiness`), tiers
(`tiers`), match-slip lines (`slip`), input checks (`validate`), CSV/JSON exchange
(`exchange`). `records` may use `regulation` (infraction and tier ids), never the other way.
"""
