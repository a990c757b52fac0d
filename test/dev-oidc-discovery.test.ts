/**
 * The sandbox's /.well-known/openid-configuration against OpenID Connect
 * Discovery 1.0, section 3 (https://openid.net/specs/openid-connect-discovery-1_0.html,
 * read 2026-11-25): the REQUIRED fields are present, and the endpoints they
 * name are served (a client that follows them gets JSON, not a 404).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../src/sandbox/sandbox-server.js';

// The REQUIRED metadata of OpenID Provider Metadata (section 3), copied from the specification.
const REQUIRED = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'response_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
];

describe('svcctl dev: OpenID Connect discovery document', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({});
  });
  after(async () => sandbox?.close());

  it('has every REQUIRED field, with the issuer equal to the URL it was fetched under', async () => {
    const document = (await (await fetch(`${sandbox.origin}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    for (const field of REQUIRED) assert.ok(document[field] !== undefined, `missing ${field}`);
    assert.equal(document.issuer, sandbox.origin);
    for (const list of [
      'response_types_supported',
      'subject_types_supported',
      'id_token_signing_alg_values_supported',
    ]) {
      assert.ok(Array.isArray(document[list]) && (document[list] as unknown[]).length > 0, list);
    }
    // Section 3: "The algorithm RS256 MUST be included."
    assert.ok((document.id_token_signing_alg_values_supported as unknown[]).includes('RS256'));
  });

  it('serves jwks_uri (a JWK Set) and answers authorization and token endpoints with OAuth errors', async () => {
    const document = (await (await fetch(`${sandbox.origin}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string
    >;
    const jwks = await fetch(document.jwks_uri!);
    assert.equal(jwks.status, 200);
    assert.ok(Array.isArray(((await jwks.json()) as { keys?: unknown }).keys));
    const authorize = await fetch(`${document.authorization_endpoint}?response_type=code&client_id=x`);
    assert.equal(authorize.status, 400);
    assert.equal(((await authorize.json()) as { error: string }).error, 'unsupported_response_type');
    const token = await fetch(document.token_endpoint!, {
      method: 'POST',
      body: 'grant_type=authorization_code',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(token.status, 400);
    assert.equal(((await token.json()) as { error: string }).error, 'unsupported_grant_type');
  });
});
