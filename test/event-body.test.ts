// The body bytes built from a JSON document (src/events/event-body.ts): the canonical text is built
// member by member, so it is checked here against a second route, JSON.stringify of an object made
// in the contract's member order; an input already in that form is sent as its own bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildFromBytes, type BuildDefaults } from '../src/events/event-body.js';

const defaults: BuildDefaults = {
  now: () => new Date('2026-11-22T02:31:00.000Z'),
  newId: () => '00000000-0000-4000-8000-000000000000',
};
const ID = '6f1c2a4e-8b7d-4c3e-9f0a-1b2c3d4e5f60';

/** The contract's form by another route: an object in member order, then JSON.stringify. */
function expected(event: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const ordered: Record<string, unknown> = {
    id: event.id ?? defaults.newId(),
    title: event.title,
    created_at: event.created_at ?? '2026-11-22T02:31:00.000Z',
  };
  if ('investigate' in event) ordered.investigate = event.investigate;
  if ('payload' in event)
    ordered.payload = typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload);
  for (const [key, value] of Object.entries(event)) if (!(key in ordered)) ordered[key] = value;
  return JSON.stringify({ event: ordered, ...extra });
}

const build = (document: unknown, text = JSON.stringify(document)) =>
  buildFromBytes(Buffer.from(text, 'utf8'), { line: 3, raw: false, defaults });

const cases: { name: string; event: Record<string, unknown>; extra?: Record<string, unknown> }[] = [
  {
    name: 'every known member, out of order',
    event: {
      payload: '{"source":"ci"}',
      investigate: true,
      created_at: '2026-11-22T02:31:00.000Z',
      title: 'deploy',
      id: ID,
    },
  },
  { name: 'no id, no time, no investigate', event: { title: 'only a title' } },
  {
    name: 'a payload object (serialized into a string)',
    event: { id: ID, title: 't', payload: { source: 'x', labels: { a: 'b' } } },
  },
  {
    name: 'unknown members after the known ones, in input order',
    event: { zeta: 1, id: ID, title: 't', alpha: { nested: [1, 'two', null] }, empty: '' },
  },
  {
    name: 'text to escape and non-ASCII',
    event: { id: ID, title: 'quote " backslash \\ tab \t newline \n é 漢 😀 \u2028', payload: '{"message":"ünïcode"}' },
  },
  { name: 'top-level members beside event', event: { id: ID, title: 't' }, extra: { trace: { id: 7 }, note: 'kept' } },
  {
    name: 'a time with an offset (converted to UTC)',
    event: { id: ID, title: 't', created_at: '2026-11-22T03:31:00+01:00' },
  },
];

for (const { name, event, extra } of cases) {
  test(`canonical body: ${name}`, () => {
    const built = build({ event, ...extra });
    const want = name.startsWith('a time with an offset')
      ? expected({ ...event, created_at: '2026-11-22T02:31:00.000Z' }, extra)
      : expected(event, extra);
    assert.equal(built.body.toString('utf8'), want);
    assert.deepEqual(JSON.parse(built.body.toString('utf8')), JSON.parse(want));
  });
}

test('a bare event is wrapped', () => {
  assert.equal(build({ id: ID, title: 'bare' }).body.toString('utf8'), expected({ id: ID, title: 'bare' }));
});

test('a member named __proto__ stays a member (top level and in the event), never a prototype', () => {
  const text = `{"event":{"id":"${ID}","title":"t","__proto__":{"x":1}},"__proto__":{"y":2}}`;
  const body = build(undefined, text).body.toString('utf8');
  assert.equal(
    body,
    `{"event":{"id":"${ID}","title":"t","created_at":"2026-11-22T02:31:00.000Z","__proto__":{"x":1}},"__proto__":{"y":2}}`,
  );
});

test('an input already in the form sent is sent as its own bytes; any other form is rewritten', () => {
  const canonical = Buffer.from(
    expected({ id: ID, title: 'as sent', created_at: '2026-11-22T02:31:00.000Z', investigate: false, payload: '{}' }),
  );
  const same = buildFromBytes(canonical, { line: 1, raw: false, defaults });
  assert.equal(same.body, canonical, 'the same Buffer, not a copy');
  const spaced = Buffer.from(canonical.toString().replace('"title":', '"title": '));
  const rewritten = buildFromBytes(spaced, { line: 2, raw: false, defaults });
  assert.notEqual(rewritten.body, spaced);
  assert.equal(rewritten.body.toString(), canonical.toString());
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), canonical]);
  assert.equal(
    buildFromBytes(withBom, { line: 3, raw: false, defaults }).body.toString(),
    canonical.toString(),
    'a BOM is not sent',
  );
  const accented = Buffer.from(expected({ id: ID, title: 'café' }));
  assert.equal(buildFromBytes(accented, { line: 4, raw: false, defaults }).body.toString(), accented.toString());
});

test('errors name the line, made only when needed', () => {
  assert.throws(() => build(undefined, '{"event": [1]}'), /invalid event in line 3: event: must be a JSON object/);
  assert.throws(
    () => buildFromBytes(Buffer.from('{nope'), { label: 'stdin', raw: false }),
    /invalid event in stdin: not valid JSON/,
  );
  assert.throws(
    () => buildFromBytes(Buffer.from([0x7b, 0xff, 0x7d]), { line: 9, raw: false }),
    /line 9 is not valid UTF-8 text/,
  );
  const warned = build({ event: { id: ID, title: 't', team: 'sre' }, batch: 1 });
  assert.deepEqual(warned.warnings, [
    'line 3: event.team: unknown member, passed through as is',
    'line 3: batch: unknown top-level member, passed through as is',
  ]);
});

test('isUuid agrees with the UUID regular expression, character by character', async () => {
  const { isUuid } = await import('../src/events/event-validate.js');
  const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  const base = '6f1c2a4e-8b7d-4c3e-9f0a-1b2c3D4E5F60';
  const samples = [
    base,
    base.toUpperCase(),
    '',
    base.slice(1),
    `${base}0`,
    ' '.repeat(36),
    `${base.slice(0, 35)}\n`,
    base.replace(/-/g, '0'),
  ];
  // Every character of the alphabet below in every position of a valid UUID: the boundaries 0-9, a-f, A-F and their neighbours.
  for (let position = 0; position < 36; position++) {
    for (const char of '/09:@AFGaf`g-z_\u0660\uff10')
      samples.push(base.slice(0, position) + char + base.slice(position + 1));
  }
  for (const sample of samples) assert.equal(isUuid(sample), UUID_PATTERN.test(sample), JSON.stringify(sample));
  assert.ok(samples.filter((sample) => isUuid(sample)).length > 36, 'valid ones were tried too');
});
