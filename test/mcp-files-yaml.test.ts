import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { CliError } from '../src/core/errors.js';
import { openYamlDocument } from '../src/formats/yaml-document.js';

const GOOSE = [
  '# Goose settings',
  'GOOSE_PROVIDER: openai',
  'extensions:',
  '  developer:   # built in',
  '    enabled: true',
  '    name: developer',
  '    type: builtin',
  '',
  '# keep me',
  'GOOSE_MODEL: gpt-4o',
  '',
].join('\n');
const ENTRY = { cmd: 'npx', args: ['-y', 'service-mcp-server@latest'], enabled: true, name: 'service', type: 'stdio' };

describe('YAML: keyed map (Goose extensions:)', () => {
  it('adds the entry inside the map, keeps comments and order; uninstall gives the text back', () => {
    const installed = openYamlDocument(GOOSE, 'config.yaml').set(['extensions', 'service'], ENTRY);
    assert.equal(
      installed,
      [
        '# Goose settings',
        'GOOSE_PROVIDER: openai',
        'extensions:',
        // The yaml package keeps every comment; one after a map key moves to its own line.
        '  developer:',
        '    # built in',
        '    enabled: true',
        '    name: developer',
        '    type: builtin',
        '  service:',
        '    cmd: npx',
        '    args:',
        '      - -y',
        '      - service-mcp-server@latest',
        '    enabled: true',
        '    name: service',
        '    type: stdio',
        '',
        '# keep me',
        'GOOSE_MODEL: gpt-4o',
        '',
      ].join('\n'),
    );
    assert.deepEqual(parse(installed).extensions.service, ENTRY);
    const removed = openYamlDocument(installed, 'config.yaml').remove(['extensions', 'service']);
    assert.deepEqual(parse(removed), parse(GOOSE));
    assert.match(removed, /# Goose settings\n/);
    assert.match(removed, /# keep me\nGOOSE_MODEL: gpt-4o\n$/);
  });

  it('is idempotent: the same entry again returns the same text', () => {
    const once = openYamlDocument(GOOSE, 'c.yaml').set(['extensions', 'service'], ENTRY);
    assert.equal(openYamlDocument(once, 'c.yaml').set(['extensions', 'service'], ENTRY), once);
    assert.deepEqual(openYamlDocument(once, 'c.yaml').get(['extensions', 'service']), ENTRY);
  });

  it('an empty file gets the map; removing what is absent changes nothing', () => {
    const created = openYamlDocument('', 'c.yaml').set(['extensions', 'service'], { type: 'stdio' });
    assert.equal(created, 'extensions:\n  service:\n    type: stdio\n');
    assert.equal(openYamlDocument(GOOSE, 'c.yaml').remove(['extensions', 'nothing']), GOOSE);
  });

  it('keeps CRLF line endings', () => {
    const text = 'a: 1\r\nextensions: {}\r\n';
    const installed = openYamlDocument(text, 'c.yaml').set(['extensions', 'service'], { type: 'stdio' });
    assert.ok(!/[^\r]\n/.test(installed), installed);
    assert.deepEqual(parse(installed), { a: 1, extensions: { service: { type: 'stdio' } } });
  });

  it('refuses a file that does not parse with file:line:column, exit 7', () => {
    const bad = 'extensions:\n  a: 1\n   b: [\n';
    assert.throws(
      () => openYamlDocument(bad, '/h/config.yaml'),
      (error: unknown) =>
        error instanceof CliError &&
        error.exitCode === 7 &&
        /^\/h\/config\.yaml:\d+:\d+: the file does not parse/.test(error.message),
    );
    assert.throws(() => openYamlDocument('a: 1\na: 2\n', 'c.yaml'), /c\.yaml:2:1: the file does not parse/);
  });

  it('refuses a top level that is not a map, and a servers key that is not a map', () => {
    assert.throws(
      () => openYamlDocument('- a\n- b\n', 'c.yaml'),
      (error: unknown) => error instanceof CliError && error.exitCode === 7,
    );
    assert.throws(() => openYamlDocument('extensions: 3\n', 'c.yaml').set(['extensions', 'service'], ENTRY), CliError);
  });
});

const CONTINUE = [
  'name: My config',
  'version: 0.0.1',
  'schema: v1',
  'mcpServers:',
  '  # the first one',
  '  - name: other',
  '    command: uvx',
  'models: []',
  '',
].join('\n');

describe('YAML: list of items by name (Continue mcpServers:)', () => {
  const options = { namedLists: [['mcpServers']] };
  it('appends a new item, replaces it in place by name, removes it; the rest is kept', () => {
    const item = { name: 'service', command: 'npx', args: ['-y', 'x'] };
    const added = openYamlDocument(CONTINUE, 'config.yaml', options).set(['mcpServers', 'service'], item);
    assert.equal(
      added,
      CONTINUE.replace(
        'models: []',
        '  - name: service\n    command: npx\n    args:\n      - -y\n      - x\nmodels: []',
      ),
    );
    const document = openYamlDocument(added, 'config.yaml', options);
    assert.deepEqual(document.get(['mcpServers', 'service']), item);
    assert.deepEqual(document.get(['mcpServers', 'other']), { name: 'other', command: 'uvx' });
    const replaced = document.set(['mcpServers', 'service'], { name: 'service', url: 'https://h/mcp' });
    assert.deepEqual(parse(replaced).mcpServers, [
      { name: 'other', command: 'uvx' },
      { name: 'service', url: 'https://h/mcp' },
    ]);
    assert.equal(openYamlDocument(added, 'config.yaml', options).remove(['mcpServers', 'service']), CONTINUE);
  });

  it('creates the list when the file has none, and refuses a non-list', () => {
    const created = openYamlDocument('name: x\n', 'c.yaml', options).set(['mcpServers', 'service'], {
      name: 'service',
    });
    assert.deepEqual(parse(created), { name: 'x', mcpServers: [{ name: 'service' }] });
    assert.throws(() => openYamlDocument('mcpServers: {a: 1}\n', 'c.yaml', options), CliError);
  });
});
