/**
 * A model-based test of the MCP files (fast-check's commands): random short sequences of install, uninstall,
 * uninstall --all and get over six clients of different formats in both scopes (helpers/mcp-model.ts), with
 * a user's own files there beforehand. The model is which entry (name, deployment) each place holds. After
 * every step `mcp list --json` and the files (read with each format's own parser) agree with the model; a
 * repeated identical install and a refused one change no byte; after `uninstall --all` the folder is as it
 * was before the sequence: every file svcctl created is gone with its .bak and the folders it made, and each
 * file the user had is byte-identical (its .bak may stay beside it).
 * Size: 100 sequences of at most 3 random steps plus a closing --all, about 4.5 s of CPU (2026-11-28); a failure
 * shrinks to a few steps (a build whose uninstall left the folders failed on `install cursor`, `uninstall --all`;
 * such a build failed within 12 sequences for each of 20 seeds).
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { runCli } from './helpers/cli.js';
import { PLACES, PROJECT, serversIn, snapshotTree, type Place, type Tree } from './helpers/mcp-model.js';
import { tempDir } from './helpers/temp-dirs.js';

const DEPLOYMENTS = ['https://prod.example.test/api', 'https://staging.example.test/api'] as const;
const NAMES = ['svc-a', 'svc-b'] as const;
const PASSWORD = 'model-test-password-1';
// svcctl's own records (created-files.json) live in HOME/.local; PATH points at an empty folder, so no client
// program is found and every client's default place is used (and no PATH search slows each run).
const SKIPPED = ['.local', 'nobin'];

interface World {
  home: string;
  project: string;
  before: Tree;
  userFiles: Set<string>;
  /** The files after the last step. */
  now: Tree;
  /** The files and the model when list and the files last agreed with it: list reads only them, so it is not asked again. */
  agreed?: { files: Tree; model: string };
}

/** (place index, name) → deployment index. */
type Model = Map<string, number>;
const key = (place: number, name: string): string => `${place} ${name}`;

async function svcctl(world: World, args: string[], deployment = 0) {
  return runCli(args, {
    home: world.home,
    cwd: world.project,
    env: {
      SERVICE_BASE_URL: DEPLOYMENTS[deployment],
      SERVICE_EMAIL: 'me@example.test',
      SERVICE_PASSWORD: PASSWORD,
      PATH: join(world.home, 'nobin'),
    },
  });
}

const scopeArgs = (place: Place, name: string): string[] => [
  '--client',
  place.client,
  '--scope',
  place.scope,
  '--name',
  name,
];
const sameFiles = (a: Tree, b: Tree): boolean =>
  a.files.size === b.files.size && [...a.files].every(([path, bytes]) => b.files.get(path) === bytes);

/** `mcp list --json` and each file, read with its format's own parser, hold exactly the model's entries. */
async function agree(model: Model, world: World): Promise<void> {
  const files = world.now;
  const modelled = JSON.stringify([...model].sort());
  if (world.agreed && world.agreed.model === modelled && sameFiles(files, world.agreed.files)) return;
  const expected: string[] = [];
  for (const [entry, deployment] of model) {
    const [index, name] = entry.split(' ') as [string, string];
    const place = PLACES[Number(index)]!;
    expected.push(
      [place.client, place.scope, join(world.home, place.file), name, DEPLOYMENTS[deployment], deployment !== 0].join(
        ' ',
      ),
    );
  }
  const list = await svcctl(world, ['--json', 'mcp', 'list']);
  assert.equal(list.code, 0, list.stderr);
  const listed = (JSON.parse(list.stdout) as Record<string, unknown>[]).map((e) =>
    [e.client, e.scope, e.file, e.name, e.url, e.other_deployment].join(' '),
  );
  assert.deepEqual(listed.sort(), expected.sort(), 'mcp list');
  for (const [index, place] of PLACES.entries()) {
    const servers = await serversIn(world.home, place);
    const ours = Object.keys(servers ?? {}).filter((name) => name.startsWith('svc-'));
    const modelled = NAMES.filter((name) => model.has(key(index, name)));
    assert.deepEqual(ours.sort(), modelled, `${place.file} holds the model's entries`);
    for (const name of modelled)
      assert.match(
        JSON.stringify(servers![name]),
        new RegExp(DEPLOYMENTS[model.get(key(index, name))!]!.replace(/\./g, '\\.')),
      );
    if (world.userFiles.has(place.file)) assert.ok(servers?.theirs, `${place.file} still has the user's own server`);
  }
  world.agreed = { files, model: modelled };
}

/** `mcp get` shows the entry as the file holds it (the password masked), or fails when there is none. */
async function getAgrees(model: Model, world: World, index: number, name: string): Promise<void> {
  const place = PLACES[index]!;
  const got = await svcctl(world, ['--json', 'mcp', 'get', ...scopeArgs(place, name)]);
  if (!model.has(key(index, name))) {
    assert.notEqual(got.code, 0, `get of a missing entry fails: ${got.stdout}`);
    return;
  }
  assert.equal(got.code, 0, got.stderr);
  const shown = JSON.parse(got.stdout) as { file: string; entry: unknown };
  assert.equal(shown.file, join(world.home, place.file));
  const inFile = (await serversIn(world.home, place))![name];
  assert.deepEqual(shown.entry, JSON.parse(JSON.stringify(inFile).replaceAll(PASSWORD, '***')));
}

/**
 * A step at one place: a given one, or 'used' (the place of an entry the model has, so that a second name, a
 * conflict and an uninstall that finds its entry come often, not once in 11 × 11 draws).
 */
abstract class AtPlace {
  index = 0;
  constructor(
    readonly where: number | 'used',
    readonly name: string,
  ) {}
  check = () => true;
  protected resolve(model: Model): Place {
    const used = [...model.keys()].sort()[0];
    this.index = this.where !== 'used' ? this.where : used === undefined ? 0 : Number(used.split(' ')[0]);
    return PLACES[this.index]!;
  }
  protected at = (): string => `${this.where === 'used' ? 'used ' : ''}${PLACES[this.index]!.file} ${this.name}`;
}

class Install extends AtPlace implements fc.AsyncCommand<Model, World> {
  constructor(
    where: number | 'used',
    name: string,
    readonly deployment: number,
  ) {
    super(where, name);
  }
  async run(model: Model, world: World): Promise<void> {
    const place = this.resolve(model);
    const had = model.get(key(this.index, this.name));
    const before = world.now;
    const result = await svcctl(world, ['mcp', 'install', ...scopeArgs(place, this.name)], this.deployment);
    world.now = await snapshotTree(world.home, SKIPPED);
    if (had === undefined) {
      assert.equal(result.code, 0, result.stderr);
      model.set(key(this.index, this.name), this.deployment);
    } else {
      // The same entry again is unchanged; another deployment's under the same name is a conflict (exit 7).
      assert.equal(result.code, had === this.deployment ? 0 : 7, result.stderr);
      assert.ok(sameFiles(world.now, before), 'no byte changed');
    }
    await agree(model, world);
    await getAgrees(model, world, this.index, this.name);
  }
  override toString = () => `install ${this.at()} @${this.deployment}`;
}

class Uninstall extends AtPlace implements fc.AsyncCommand<Model, World> {
  async run(model: Model, world: World): Promise<void> {
    const place = this.resolve(model);
    const before = world.now;
    const result = await svcctl(world, ['mcp', 'uninstall', ...scopeArgs(place, this.name)]);
    assert.equal(result.code, 0, result.stderr);
    world.now = await snapshotTree(world.home, SKIPPED);
    // An entry that is not there is reported, and nothing is written.
    if (!model.delete(key(this.index, this.name))) assert.ok(sameFiles(world.now, before), 'no byte changed');
    await agree(model, world);
  }
  override toString = () => `uninstall ${this.at()}`;
}

class UninstallAll implements fc.AsyncCommand<Model, World> {
  /** `last`: the one each sequence ends with; not run when the files are still the user's (nothing to remove). */
  constructor(readonly last = false) {}
  check = () => true;
  async run(model: Model, world: World): Promise<void> {
    if (this.last && model.size === 0 && sameFiles(world.now, world.before)) return asBefore(world);
    const result = await svcctl(world, ['mcp', 'uninstall', '--all']);
    assert.equal(result.code, 0, result.stderr);
    world.now = await snapshotTree(world.home, SKIPPED);
    model.clear();
    await asBefore(world);
    await agree(model, world);
  }
  toString = () => 'uninstall --all';
}

class Get extends AtPlace implements fc.AsyncCommand<Model, World> {
  async run(model: Model, world: World): Promise<void> {
    this.resolve(model);
    await getAgrees(model, world, this.index, this.name);
  }
  override toString = () => `get ${this.at()}`;
}

/** The folder as it was: the user's files byte-identical (a .bak beside one may stay), nothing else svcctl made. */
async function asBefore(world: World): Promise<void> {
  const { now } = world;
  assert.deepEqual([...now.folders].sort(), [...world.before.folders].sort(), 'the folders svcctl made are gone');
  for (const [path, bytes] of world.before.files) assert.equal(now.files.get(path), bytes, `${path} is as it was`);
  const extra = [...now.files.keys()].filter((path) => !world.before.files.has(path));
  assert.deepEqual(
    extra.filter((path) => !(path.endsWith('.bak') && world.userFiles.has(path.slice(0, -4)))),
    [],
    'every file svcctl created is gone, with its .bak',
  );
}

async function setUp(root: string, run: number, userPlaces: number[]): Promise<World> {
  const home = join(root, `run-${run}`);
  const project = join(home, PROJECT);
  await mkdir(project, { recursive: true });
  await mkdir(join(home, 'nobin'));
  const userFiles = new Set<string>();
  for (const index of userPlaces) {
    const place = PLACES[index]!;
    await mkdir(dirname(join(home, place.file)), { recursive: true });
    await writeFile(join(home, place.file), place.userText);
    userFiles.add(place.file);
  }
  const before = await snapshotTree(home, SKIPPED);
  return { home, project, before, now: before, userFiles };
}

const place = fc.oneof(fc.constant('used' as const), fc.nat({ max: PLACES.length - 1 }));
const name = fc.constantFrom(...NAMES);
const COMMANDS = [
  fc.tuple(place, name, fc.constantFrom(0, 1)).map(([p, n, d]) => new Install(p, n, d)),
  fc.tuple(place, name, fc.constantFrom(0, 1)).map(([p, n, d]) => new Install(p, n, d)),
  fc.tuple(place, name).map(([p, n]) => new Uninstall(p, n)),
  fc.tuple(place, name).map(([p, n]) => new Get(p, n)),
  fc.constant(new UninstallAll()),
];

test('install / uninstall / uninstall --all / list / get keep the model, the files and the user files', async () => {
  const root = await tempDir('svcctl-model-');
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.subarray([...PLACES.keys()]),
      fc.commands(COMMANDS, { maxCommands: 3 }),
      async (userPlaces, commands) => {
        runs += 1;
        const world = await setUp(root, runs, userPlaces);
        await fc.asyncModelRun(() => ({ model: new Map(), real: world }), [...commands, new UninstallAll(true)]);
      },
    ),
    { numRuns: 100, includeErrorInReport: true },
  );
  assert.equal(runs, 100);
});
