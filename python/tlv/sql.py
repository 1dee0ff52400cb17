"""sql — a trace as a SQLite database, with Python's sqlite3: the schema of
docs/sql.md, row for row what `tlv export --format sqlite` writes (the
package's tests compare the two), except the markers of a viewer session."""
import json
import os
import sqlite3

from ._lib import TlvError, lib, text

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE resources(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL, type TEXT NOT NULL, attributes TEXT NOT NULL);
CREATE TABLE events(id INTEGER PRIMARY KEY, ts REAL NOT NULL,
  resource_id INTEGER NOT NULL REFERENCES resources(id), kind TEXT NOT NULL,
  name TEXT NOT NULL, value TEXT, args TEXT, line INTEGER NOT NULL);
CREATE TABLE rows(id INTEGER PRIMARY KEY, label TEXT NOT NULL,
  resource_id INTEGER REFERENCES resources(id), grp TEXT);
CREATE TABLE intervals(id INTEGER PRIMARY KEY, rule TEXT NOT NULL, event TEXT NOT NULL,
  resource_id INTEGER REFERENCES resources(id), row_id INTEGER NOT NULL REFERENCES rows(id),
  ts REAL NOT NULL, end_ts REAL NOT NULL, dur REAL NOT NULL, value TEXT, text TEXT,
  instant INTEGER NOT NULL);
CREATE TABLE counters(id INTEGER PRIMARY KEY,
  resource_id INTEGER NOT NULL REFERENCES resources(id), attribute TEXT NOT NULL,
  display_name TEXT NOT NULL, min REAL, max REAL, mean REAL, time_mean REAL);
CREATE TABLE counter_samples(counter_id INTEGER NOT NULL REFERENCES counters(id),
  ts REAL NOT NULL, value REAL NOT NULL);
CREATE TABLE flows(id INTEGER PRIMARY KEY, rule TEXT NOT NULL, name TEXT NOT NULL,
  display_name TEXT NOT NULL, ts REAL NOT NULL,
  from_resource_id INTEGER REFERENCES resources(id),
  to_resource_id INTEGER REFERENCES resources(id), from_processor TEXT, to_processor TEXT,
  event_id INTEGER REFERENCES events(id));
CREATE TABLE markers(id INTEGER PRIMARY KEY, ts REAL NOT NULL, name TEXT NOT NULL,
  color TEXT);
"""

INDEXES = """
CREATE INDEX events_by_ts ON events(ts);
CREATE INDEX events_by_resource ON events(resource_id, ts);
CREATE INDEX intervals_by_ts ON intervals(ts, end_ts);
CREATE INDEX intervals_by_end ON intervals(end_ts);
CREATE INDEX intervals_by_resource ON intervals(resource_id, ts);
CREATE INDEX counter_samples_by_counter ON counter_samples(counter_id, ts);
CREATE INDEX flows_by_ts ON flows(ts);
"""


def _attributes(trace, events, ids):
    """Each resource's attributes that change in the trace, with their
    values before the first event, as JSON objects (in order of first change)."""
    attrs = [dict() for _ in ids]
    start = lib.tlv_trace_start(trace._h)
    before = (start.ticks - 1, start.frac)
    for e in events:
        if e.kind == "attribute" and e.resource in ids and e.name not in attrs[ids[e.resource]]:
            try:
                value = trace.attr_at(e.resource, e.name, before)
            except TlvError:  # the resource's type lacks it: recorded as null
                value = None
            attrs[ids[e.resource]][e.name] = value
    return [json.dumps(a, ensure_ascii=False, separators=(",", ":")) for a in attrs]


def write_sqlite(trace, shapes, path):
    tmp = f"{path}.tmp.{os.getpid()}"
    if os.path.exists(tmp):
        os.unlink(tmp)
    db = sqlite3.connect(tmp)
    try:
        _fill(db, trace, shapes)
        db.commit()
        db.close()
        os.replace(tmp, path)
    except BaseException:
        db.close()
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _fill(db, trace, shapes):
    rules = trace.rules
    db.executescript(SCHEMA)
    resources = trace.resources()
    ids = {name: i for i, (name, _type) in enumerate(resources)}
    events = trace.events()
    db.executemany("INSERT INTO meta VALUES(?,?)", [
        ("schema_version", "1"), ("generator", "tlv " + text(lib.tlv_version())),
        ("source", trace.source), ("time_scale", rules.time_scale),
        ("time_radix", str(rules.radix)), ("start", "%.17g" % trace.start),
        ("end", "%.17g" % trace.end)])
    nrules = lib.tlv_rules_resource_count(rules._h)
    attrs = _attributes(trace, events, ids)
    db.executemany("INSERT INTO resources VALUES(?,?,?,?,?)", [
        (i, name, (text(lib.tlv_rules_resource_display_name(rules._h, i)) if i < nrules else None)
         or name, rtype, attrs[i]) for i, (name, rtype) in enumerate(resources)])
    db.executemany("INSERT INTO events VALUES(?,?,?,?,?,?,?,?)", [
        (e.id, e.ts, ids.get(e.resource), e.kind, e.name, e.value,
         None if e.args is None else json.dumps(e.args, ensure_ascii=False, separators=(",", ":")),
         e.line) for e in events])
    db.executemany("INSERT INTO rows VALUES(?,?,?,?)", [
        (i, r.label, ids.get(r.resource), r.group) for i, r in enumerate(shapes.rows())])
    db.executemany("INSERT INTO intervals VALUES(?,?,?,?,?,?,?,?,?,?,?)", [
        (i, v.rule, v.event, ids.get(v.resource), v.row, v.start, v.end, v.dur, v.value, v.text,
         int(v.instant)) for i, v in enumerate(shapes.intervals())])
    for i, c in enumerate(trace.counters()):
        db.execute("INSERT INTO counters VALUES(?,?,?,?,?,?,?,?)",
                   (i, ids.get(c.resource), c.attribute, c.display_name, c.min, c.max, c.mean,
                    c.time_mean))
        db.executemany("INSERT INTO counter_samples VALUES(?,?,?)",
                       [(i, ts, value) for ts, value in c.samples])
    db.executemany("INSERT INTO flows VALUES(?,?,?,?,?,?,?,?,?,?)", [
        (i, f.rule, f.name, f.display_name, f.ts, ids.get(f.from_resource),
         ids.get(f.to_resource), f.from_processor, f.to_processor, f.event)
        for i, f in enumerate(shapes.flows())])
    db.executescript(INDEXES)
