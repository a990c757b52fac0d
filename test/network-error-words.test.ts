/**
 * describeNetworkError, code by code: the words for each system or undici error code, whether it is retried, and
 * the hint; the code may sit on the error or deeper in its causes (fetch wraps undici's error in a TypeError).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeadlineExceeded } from '../src/http/attempt-deadline.js';
import { describeNetworkError } from '../src/http/network-errors.js';

const URL_ = 'https://svc.example.com/api/v1/event';
const coded = (code: string, message = `failed: ${code}`): Error => Object.assign(new Error(message), { code });
const wrapped = (cause: Error): Error => new TypeError('fetch failed', { cause });

describe('describeNetworkError', () => {
  const cases: Array<[string, Error, { message: string | RegExp; retryable: boolean; hint?: RegExp }]> = [
    [
      'refused by another host: retried',
      coded('ECONNREFUSED'),
      { message: 'connection refused by svc.example.com', retryable: true, hint: /is the service running/ },
    ],
    [
      'no such host',
      wrapped(coded('ENOTFOUND')),
      { message: 'cannot resolve host svc.example.com', retryable: false, hint: /check the base URL/ },
    ],
    [
      'a resolver that did not answer',
      coded('EAI_AGAIN'),
      { message: 'temporary failure resolving svc.example.com', retryable: true },
    ],
    [
      'a reset',
      wrapped(coded('UND_ERR_SOCKET')),
      { message: 'connection to svc.example.com was reset', retryable: true },
    ],
    ['a broken pipe', coded('EPIPE'), { message: 'connection to svc.example.com was reset', retryable: true }],
    [
      'no connection in time',
      coded('UND_ERR_CONNECT_TIMEOUT'),
      { message: 'could not connect to svc.example.com in time', retryable: true },
    ],
    [
      'no answer in time',
      coded('UND_ERR_HEADERS_TIMEOUT'),
      { message: 'no answer from svc.example.com within 7s', retryable: true },
    ],
    [
      'svcctl own deadline, in its own words',
      new DeadlineExceeded('headers', 7000),
      { message: /^svc\.example\.com: /, retryable: true },
    ],
    [
      'a timeout through the proxy',
      coded('ETIMEDOUT', 'no answer through the proxy'),
      { message: 'svc.example.com: no answer through the proxy', retryable: true, hint: /HTTPS_PROXY/ },
    ],
    [
      'a proxy refusing the tunnel',
      coded('EPROXYREFUSED', 'the proxy refused'),
      { message: 'svc.example.com: the proxy refused', retryable: false, hint: /HTTPS_PROXY/ },
    ],
    [
      'a proxy answering 407',
      new Error('Proxy response (407) !== 200 when HTTP Tunneling'),
      { message: /the proxy answered 407 \(proxy authentication required/, retryable: false, hint: /NO_PROXY/ },
    ],
    [
      'plain http at an https URL',
      coded('EPROTO', 'ssl3_get_record:wrong version number'),
      {
        message: 'the server at svc.example.com:443 did not answer TLS (is it plain http? try http://)',
        retryable: false,
      },
    ],
    [
      'another TLS protocol failure',
      coded('EPROTO', 'handshake failure'),
      { message: 'the TLS handshake with svc.example.com failed', retryable: false, hint: /right scheme/ },
    ],
    [
      'a certificate not accepted',
      wrapped(coded('SELF_SIGNED_CERT_IN_CHAIN')),
      {
        message: 'the TLS certificate of svc.example.com was not accepted (SELF_SIGNED_CERT_IN_CHAIN)',
        retryable: false,
        hint: /NODE_EXTRA_CA_CERTS/,
      },
    ],
    [
      'another retryable code',
      coded('EHOSTUNREACH', 'no route'),
      { message: 'request to svc.example.com failed: no route', retryable: true },
    ],
    [
      'no code at all',
      new Error('something else'),
      { message: 'request to svc.example.com failed: something else', retryable: false },
    ],
  ];
  for (const [name, error, expected] of cases) {
    it(name, () => {
      const problem = describeNetworkError(error, URL_, 7);
      if (typeof expected.message === 'string') assert.equal(problem.message, expected.message);
      else assert.match(problem.message, expected.message);
      assert.equal(problem.retryable, expected.retryable);
      if (expected.hint) assert.match(problem.hint ?? '', expected.hint);
      else assert.equal(problem.hint, undefined);
    });
  }
});
