// chrome_devtools.mjs ENGINE_DIR TRACE.json — loads a `tlv export --format
// chrome` file into the Chrome DevTools performance panel's trace engine
// (@paulirish/trace_engine from npm) and checks that it keeps what tlv wrote:
// every thread with its name and all its complete events ("X"; the engine's
// thread tracks leave instant events out), the nesting (each entry's
// parent in the engine's tree contains it), and every flow: the engine binds
// a flow event to the slice of its thread, time and category, and keys a
// flow's slices by time, so a flow whose two ends bind to slices of one time
// is lost. Counter events ("C") are counted too: the engine draws no
// counter tracks of its own kind, so it keeps none of them.
// Prints a summary line, or the problems and exits 1.
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';

globalThis.DOMRect ??= class { constructor(x = 0, y = 0, w = 0, h = 0) { Object.assign(this, {x, y, width: w, height: h}); } };
const [engineDir, tracePath] = process.argv.slice(2);
const Trace = await import(url.pathToFileURL(path.join(engineDir, 'models/trace/trace.js')).href);
const events = JSON.parse(fs.readFileSync(tracePath, 'utf8')).traceEvents;

const expected = new Map();  // "pid/tid" -> {name, count}
for (const e of events) {
  const key = `${e.pid}/${e.tid}`;
  if (e.ph === 'M' && e.name === 'thread_name') expected.set(key, {name: e.args.name, count: 0, ...expected.get(key), name: e.args.name});
}
for (const e of events)
  if (e.ph === 'X') expected.get(`${e.pid}/${e.tid}`).count++;

const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const renderer = model.parsedTrace().data.Renderer;
const problems = [];
let threads = 0, entries = 0;
for (const [pid, proc] of renderer.processes) {
  for (const [tid, thread] of proc.threads) {
    const want = expected.get(`${pid}/${tid}`);
    if (!want) { problems.push(`engine made thread ${pid}/${tid} tlv did not write`); continue; }
    threads++;
    if (thread.name !== want.name) problems.push(`${pid}/${tid}: named '${thread.name}', not '${want.name}'`);
    const n = (thread.entries ?? []).filter(e => e.ph === 'X').length;
    entries += n;
    if (n !== want.count) problems.push(`${want.name}: ${n} entries, tlv wrote ${want.count}`);
    for (const entry of thread.entries ?? []) {
      const parent = renderer.entryToNode.get(entry)?.parent?.entry;
      if (parent && (entry.ts < parent.ts || entry.ts + (entry.dur ?? 0) > parent.ts + (parent.dur ?? 0)))
        problems.push(`${want.name}: '${entry.name}' at ${entry.ts} lies outside its parent '${parent.name}'`);
    }
  }
}
const flowsWritten = new Set(events.filter(e => e.ph === 's').map(e => e.id)).size;
const flowsKept = model.parsedTrace().data.Flows.flows.length;
if (flowsKept !== flowsWritten) problems.push(`the engine keeps ${flowsKept} of ${flowsWritten} flows`);
const countersWritten = events.filter(e => e.ph === 'C').length;
const used = [...expected.values()].filter(t => t.count > 0).length;
if (threads !== used) problems.push(`the engine has ${threads} threads, tlv wrote ${used}`);
if (problems.length) {
  console.log(problems.slice(0, 20).join('\n'));
  process.exit(1);
}
console.log(`devtools ok: ${threads} threads, ${entries} entries, nesting kept, ${flowsKept} of ${flowsWritten} flows kept, 0 of ${countersWritten} counter events kept (no counter tracks)`);
