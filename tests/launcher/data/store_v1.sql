-- A run store written by schema version 1 (before restart attempts):
-- the migration test opens it with the current code.
PRAGMA user_version = 1;
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  plan_json TEXT NOT NULL,
  backend TEXT NOT NULL,
  hosts_json TEXT NOT NULL DEFAULT '[]',
  world_size INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  ended_at REAL,
  reason TEXT,
  failing_rank INTEGER,
  parent_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  resumed_from TEXT
);
CREATE TABLE step_metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  step INTEGER NOT NULL,
  t REAL,
  loss REAL, lr REAL, grad_norm REAL, tokens INTEGER, tokens_per_s REAL,
  step_ms REAL, forward_ms REAL, backward_ms REAL, optimizer_ms REAL, comm_exposed_ms REAL,
  mem_current INTEGER, mem_peak INTEGER, mem_reserved INTEGER, device_mem_used INTEGER,
  PRIMARY KEY (run_id, rank, step)
) WITHOUT ROWID;
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER,
  t REAL,
  type TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX events_by_run ON events(run_id, type);
CREATE TABLE logs (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER,
  t REAL,
  stream TEXT NOT NULL,
  line TEXT NOT NULL
);
CREATE INDEX logs_by_run ON logs(run_id, rank);
CREATE TABLE checkpoints (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  path TEXT NOT NULL,
  host TEXT,
  world_size INTEGER,
  bytes INTEGER,
  status TEXT NOT NULL,
  t REAL
);
CREATE INDEX checkpoints_by_run ON checkpoints(run_id, step);
CREATE TABLE hosts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  hostname TEXT,
  user TEXT,
  port INTEGER,
  slots INTEGER,
  last_used REAL
);
CREATE TABLE saved_plans (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  plan_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL
);
INSERT INTO runs VALUES(1,'20240101-000000-aaaaaa','old run','{"format":"shardbench-plan","version":1,"name":"old"}','local','["localhost slots=2"]',2,'completed',1704067200.0,1704067201.0,1704067260.5,NULL,NULL,NULL,NULL);
INSERT INTO runs VALUES(2,'20240102-000000-bbbbbb','broken','{"format":"shardbench-plan","version":1,"name":"old"}','ssh','["n1 slots=1","n2 slots=1"]',2,'failed',1704153600.0,1704153601.0,1704153700.0,'rank 1 on n2 exited with code 1',1,1,NULL);
INSERT INTO step_metrics VALUES(1,0,1,1704067202.0,6.5,0.0003,1.25,64,1000.0,5.0,1.0,2.0,1.0,0.5,1000,2000,3000,0);
INSERT INTO step_metrics VALUES(1,1,1,1704067202.0,6.5,0.0003,1.25,64,1000.0,5.5,1.0,2.0,1.0,0.5,1001,2001,3000,0);
INSERT INTO step_metrics VALUES(1,0,2,1704067203.0,6.25,0.0003,1.0,64,1100.0,5.0,1.0,2.0,1.0,0.5,1000,2000,3000,0);
INSERT INTO step_metrics VALUES(1,1,2,1704067203.0,6.25,0.0003,1.0,64,1100.0,5.5,1.0,2.0,1.0,0.5,1001,2001,3000,0);
INSERT INTO events VALUES(1,1,0,1704067201.5,'hello','{"host":"laptop","pid":1}');
INSERT INTO logs VALUES(1,1,0,1704067201.5,'e','[rank 0] hello from an old version');
INSERT INTO checkpoints VALUES(1,1,2,'/ck/step-000002','localhost',2,4096,'complete',1704067204.0);
INSERT INTO hosts VALUES(1,'n1','10.0.0.1','alice',22,1,1704153600.0);
INSERT INTO saved_plans VALUES(1,'favourite','{"format":"shardbench-plan"}',1704000000.0,1704000000.0);
