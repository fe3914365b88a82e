"""The penalty log: events, players and the penalties a judge records, on SQLite. No Flet here.

The view layer calls `records.store.LogStore` (synchronous, thread-safe, typed); everything it
returns is a frozen dataclass of `records.model`. Pure helpers sit beside it: player identity
(`identity`), tardiness (`tardiness`), match-slip lines (`slip`), CSV/JSON exchange
(`exchange`). `records` may use `regulation` (infraction and tier ids), never the other way.
"""
