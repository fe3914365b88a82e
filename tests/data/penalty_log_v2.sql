-- A penalty log at schema version 2 (user_version 2), as released: never edit this file.
-- tests/test_records_schema.py migrates it to the newest schema and compares it with a fresh one.
BEGIN TRANSACTION;
CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL UNIQUE,
                date TEXT,                      -- YYYY-MM-DD
                created_at TEXT NOT NULL        -- ISO 8601 with offset
            );
INSERT INTO "events" VALUES(1,'10dfb43d-722f-4433-b71d-ce95d250e307','第1版の大会','2026-11-01','2026-11-01T09:02:00.000000+09:00');
CREATE TABLE players (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                player_id TEXT,
                name_key TEXT NOT NULL,
                id_key TEXT,
                search_words TEXT NOT NULL,
                search_compact TEXT NOT NULL,
                last_used_us INTEGER NOT NULL
            );
INSERT INTO "players" VALUES(1,'山田, "太郎"
二行目','0012','山田,"太郎"二行目','0012',' 山田 太郎 二行目','山田太郎二行目',1793491380000000);
INSERT INTO "players" VALUES(2,'鈴木',NULL,'鈴木',NULL,' 鈴木','鈴木',1793491560000000);
CREATE TABLE records (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                event_id INTEGER NOT NULL REFERENCES events(id),
                player_ref INTEGER NOT NULL REFERENCES players(id),
                round INTEGER CHECK (round IS NULL OR round >= 1),
                table_label TEXT,
                infraction TEXT NOT NULL,
                tier TEXT NOT NULL,
                note TEXT,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                created_us INTEGER NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            , arrived_at TEXT, late_seconds INTEGER CHECK (late_seconds IS NULL OR late_seconds >= 0), occurrence INTEGER CHECK (occurrence IS NULL OR occurrence >= 1));
INSERT INTO "records" VALUES(1,'8a692f63-5bad-4ea4-98ae-3cb60175e907',1,1,1,'3','drew-extra-cards','warning','メモ','2026-11-01T09:03:00.000000+09:00','2026-11-01T09:03:00.000000+09:00',1793491380000000,1793491380000000,0,NULL,NULL,1);
INSERT INTO "records" VALUES(2,'b27c0b65-b885-4b55-8327-a8a9b7783101',1,2,2,NULL,'unintentional-slow-play','caution',NULL,'2026-11-01T09:04:00.000000+09:00','2026-11-01T09:06:00.000000+09:00',1793491440000000,1793491560000000,1,NULL,NULL,1);
INSERT INTO "records" VALUES(3,'9e078a7b-0926-4aaa-834b-a8f7c7cf8013',1,2,2,'5','unintentional-slow-play','caution',NULL,'2026-11-01T09:05:00.000000+09:00','2026-11-01T09:05:00.000000+09:00',1793491500000000,1793491500000000,0,'2026-11-01T10:08:26.000000+09:00',506,1);
CREATE TABLE rounds (
                event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number >= 1),
                assembly_at TEXT,               -- ISO 8601 with offset
                PRIMARY KEY (event_id, number)
            ) WITHOUT ROWID;
INSERT INTO "rounds" VALUES(1,1,'2026-11-01T10:00:00.000000+09:00');
INSERT INTO "rounds" VALUES(1,2,NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO "settings" VALUES('current_event','10dfb43d-722f-4433-b71d-ce95d250e307');
CREATE UNIQUE INDEX players_as_written ON players(name, ifnull(player_id, ''));
CREATE INDEX players_by_name_key ON players(name_key);
CREATE INDEX players_by_id_key ON players(id_key);
CREATE INDEX records_by_event_time ON records(event_id, created_us);
CREATE INDEX records_by_player ON records(player_ref, event_id, infraction);
COMMIT;
