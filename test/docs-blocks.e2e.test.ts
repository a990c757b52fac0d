/**
 * The documentation runs as written: every shell block of README.md and of
 * every docs/*.md page is run whole, as pasted into a fresh terminal, unless
 * a marker before it says why it cannot be (test/helpers/doc-blocks.ts has
 * the rules; doc-blocks.test.ts tests how they are read). A new page is picked up by itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT } from './helpers/cli.js';
import { allShellBlocks, type DocBlock, documentationFiles, pasteProblems } from './helpers/doc-blocks.js';
import { REQUEST_LOG_LINE, runDocBlock } from './helpers/run-doc-block.js';

function explain(block: DocBlock, problems: string[], output: string): string {
  return `${block.file}:${block.line}: ${problems.join('; ')}\n--- block ---\n${block.code}\n--- output ---\n${output}`;
}

async function check(block: DocBlock): Promise<string[]> {
  const run = await runDocBlock(block);
  const problems = [...run.failures];
  if (run.timedOut) problems.push('did not finish within 60 s');
  else if (run.code !== 0 && problems.length === 0) problems.push(`the shell exited with ${run.code}`);
  if (REQUEST_LOG_LINE.test(run.output)) problems.push("the sandbox's request log reached the output");
  if (run.leftovers.length > 0) problems.push(`left running: ${run.leftovers.join(' | ')}`);
  if (problems.length > 0) throw new Error(explain(block, problems, run.output));
  return problems;
}

const blocks = allShellBlocks(ROOT);

describe('the documentation runs as written', { concurrency: true }, () => {
  describe('documentation blocks', { concurrency: true }, () => {
    it('README.md and every docs/*.md page are read, and the README has blocks that run', () => {
      const files = documentationFiles(ROOT);
      assert.ok(files.includes('README.md') && files.some((file) => file.startsWith('docs/')));
      assert.ok(blocks.some((block) => block.file === 'README.md' && block.mode.kind !== 'skip'));
    });

    for (const block of blocks) {
      const name = `${block.file}:${block.line}${block.mode.kind === 'sandbox' ? ' (with a sandbox)' : ''}`;
      if (block.mode.kind === 'skip') {
        it(name, { skip: block.mode.reason }, () => {});
        continue;
      }
      it(`${name} pastes whole`, async () => {
        const problems = pasteProblems(block.code);
        assert.deepEqual(problems, [], explain(block, problems, ''));
        await check(block);
      });
    }
  });

  describe('the docs test itself refuses a block that breaks the rules', { concurrency: true }, () => {
    it('fails the block the README used to have: jq read ready.json before svcctl dev wrote it, and the sandbox was left running', async () => {
      const old = [
        'svcctl dev --events-file events.ndjson > ready.json &',
        'export SERVICE_BASE_URL=$(jq -r .base_url ready.json)',
        "export SERVICE_INGEST_TOKEN=$(jq -r '.webhooks[0].ingest_token' ready.json)",
        "export SERVICE_HMAC_SECRET=$(jq -r '.webhooks[0].hmac_secret' ready.json)",
        'svcctl event send --title "CPU high on api-1" --investigate --severity critical --label env=prod',
      ].join('\n');
      const block: DocBlock = { file: 'old-README.md', line: 1, lang: 'sh', code: old, mode: { kind: 'run' } };
      await assert.rejects(check(block), (error: Error) => {
        // Whether jq reads ready.json before the sandbox writes it is a race: either way the block is refused.
        assert.match(
          error.message,
          /line 5 failed \(exit [1-9]\d*\): svcctl event send|the sandbox's request log reached the output/,
        );
        if (process.platform === 'linux')
          assert.match(error.message, /left running: .*svcctl(\.js)? dev --events-file events\.ndjson/);
        return true;
      });
    });

    it('fails a block whose background sandbox writes its request log into the output', async () => {
      const code = [
        'svcctl dev > ready.json &',
        'until [ -s ready.json ]; do sleep 0.1; done',
        'URL=$(sed -E \'s/.*"base_url":"([^"]+)".*/\\1/\' ready.json)',
        'SERVICE_INGEST_TOKEN=wrong svcctl event send --base-url "$URL" --title x || true',
        'kill $!',
      ].join('\n');
      const block: DocBlock = { file: 'log.md', line: 1, lang: 'sh', code, mode: { kind: 'run' } };
      await assert.rejects(check(block), /the sandbox's request log reached the output/);
    });
  });
});
