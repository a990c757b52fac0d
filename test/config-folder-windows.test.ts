/**
 * The token on Windows: svcctl reads no ACL there, so it keeps its config folder (saved tokens, config.toml) only
 * inside the user's profile (USERPROFILE); a folder elsewhere (XDG_CONFIG_HOME=C:\xdg) is refused, exit 7, before
 * anything is written. The place rule with Windows paths on every system; through the CLI with a temp HOME, where
 * the refusal is checked under Node for Windows (scripts/test-win32.sh) and the write elsewhere.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { outsideProfile } from '../src/config/own-files-trust.js';
import { runCli } from './helpers/cli.js';
import { tempDir } from './helpers/temp-dirs.js';

test('inside or outside the profile, as Windows compares paths (case and separators ignored)', () => {
  const profile = 'C:\\Users\\ann';
  assert.equal(outsideProfile('C:\\Users\\ann\\.config\\svcctl', profile), false);
  assert.equal(outsideProfile('c:/users/ANN/AppData/Roaming/svcctl', profile), false);
  assert.equal(outsideProfile('C:\\xdg\\svcctl', profile), true);
  assert.equal(outsideProfile('C:\\Users\\anna\\.config\\svcctl', profile), true, 'a sibling whose name begins alike');
  assert.equal(outsideProfile('C:\\Users\\svcctl', profile), true);
  assert.equal(outsideProfile('D:\\Users\\ann\\.config\\svcctl', profile), true, 'another drive');
  assert.equal(outsideProfile('\\\\server\\share\\svcctl', profile), true, 'a network share');
});

test('deployment add with XDG_CONFIG_HOME outside the profile: refused on Windows, written elsewhere', async () => {
  const home = await tempDir('svcctl-profile-');
  const outside = await tempDir('svcctl-xdg-outside-');
  const result = await runCli(['deployment', 'add', 'prod', 'https://acme.example.com/api'], {
    home,
    env: { XDG_CONFIG_HOME: outside },
  });
  if (process.platform === 'win32') {
    assert.equal(result.code, 7, result.stderr);
    assert.match(result.stderr, /config folder .*svcctl is outside your profile/);
    assert.match(result.stderr, /hint: set XDG_CONFIG_HOME to a folder in your profile/);
    assert.deepEqual(await readdir(outside), [], 'nothing was written there');
  } else {
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await readdir(outside), ['svcctl']);
  }
});
