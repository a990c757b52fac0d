import { isLoopbackHost } from '../config/settings.js';
import { DeadlineExceeded } from './attempt-deadline.js';

export interface NetworkProblem {
  message: string;
  retryable: boolean;
  hint?: string;
  code?: string;
}

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const TLS_CODE = /^(CERT_|ERR_TLS_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_SSL_)/;

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    const candidate = (current as { code?: unknown }).code;
    if (typeof candidate === 'string') code = candidate;
    current = (current as { cause?: unknown }).cause;
  }
  return code;
}

const PROXY_HINT = 'check HTTPS_PROXY / HTTP_PROXY and NO_PROXY';

function proxyRefusal(error: unknown, host: string): NetworkProblem | undefined {
  const status = /Proxy response \((\d{3})\)/.exec(String((error as Error)?.message ?? ''))?.[1];
  if (!status) return undefined;
  const meaning =
    status === '407'
      ? 'proxy authentication required: put the credentials in the proxy URL'
      : 'the proxy refused the tunnel';
  return {
    code: errorCode(error),
    retryable: false,
    message: `${host}: the proxy answered ${status} (${meaning})`,
    hint: PROXY_HINT,
  };
}

/** What should answer at a URL, for the words of a refused connection: a base URL's service by default. */
export interface Listener {
  what: string;
  hint: string;
}

const SERVICE: Listener = {
  what: 'sandbox or service',
  hint: 'start one with `eval "$(svcctl dev --detach --format sh)"` (it takes the port of its last run again when that is free), or check SERVICE_BASE_URL',
};

/** Nothing listens at a loopback address: no retry (a sandbox or local service does not appear within seconds, it has
 * to be started), and the way to start a sandbox, which takes the port of its last run again when it is free. */
function refusedOnThisComputer(code: string, url: string, listener: Listener): NetworkProblem {
  const { host, origin } = new URL(url);
  return {
    code,
    retryable: false,
    message: `connection refused by ${host}: no ${listener.what} is listening at ${origin}`,
    hint: listener.hint,
  };
}

/** `listener`: what the URL is (an npm registry, say), when not the service or sandbox of a base URL. */
export function describeNetworkError(
  error: unknown,
  url: string,
  timeoutSeconds: number,
  listener?: Listener,
): NetworkProblem {
  const code = errorCode(error);
  const { host } = new URL(url);
  return (
    proxyRefusal(error, host) ??
    connectionProblem(code, error, url, timeoutSeconds, listener) ??
    tlsProblem(code, error, url) ?? {
      code,
      retryable: code !== undefined && RETRYABLE_CODES.has(code),
      message: `request to ${host} failed: ${(error as Error)?.message ?? String(error)}`,
    }
  );
}

/** What the system's error code says about the connection: refused, no such host, reset, no answer in time. */
function connectionProblem(
  code: string | undefined,
  error: unknown,
  url: string,
  timeoutSeconds: number,
  listener: Listener | undefined,
): NetworkProblem | undefined {
  const { host, hostname } = new URL(url);
  switch (code) {
    case 'ECONNREFUSED':
      return isLoopbackHost(hostname)
        ? refusedOnThisComputer(code, url, listener ?? SERVICE)
        : {
            code,
            retryable: true,
            message: `connection refused by ${host}`,
            hint: listener?.hint ?? 'is the service running, and is the base URL right?',
          };
    case 'ENOTFOUND':
      return { code, retryable: false, message: `cannot resolve host ${hostname}`, hint: 'check the base URL' };
    case 'EAI_AGAIN':
      return { code, retryable: true, message: `temporary failure resolving ${hostname}` };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'EPIPE':
      return { code, retryable: true, message: `connection to ${host} was reset` };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code, retryable: true, message: `could not connect to ${host} in time` };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT': {
      const viaProxy = String((error as Error)?.message ?? '').includes('through the proxy');
      const ownWords = viaProxy || error instanceof DeadlineExceeded;
      const message = ownWords
        ? `${host}: ${(error as Error).message}`
        : `no answer from ${host} within ${timeoutSeconds}s`;
      return { code, retryable: true, message, hint: viaProxy ? PROXY_HINT : undefined };
    }
    case 'EPROXYREFUSED':
      return { code, retryable: false, message: `${host}: ${(error as Error).message}`, hint: PROXY_HINT };
    default:
      return undefined;
  }
}

/** A TLS failure: plain http at an https URL, a failed handshake, a certificate not accepted. */
function tlsProblem(code: string | undefined, error: unknown, url: string): NetworkProblem | undefined {
  const { host, hostname, port, protocol } = new URL(url);
  const text = String((error as Error)?.message ?? '');
  if (
    code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    (code === 'EPROTO' && /wrong version number|packet length too long|http request/i.test(text))
  ) {
    // An https URL pointed at a plain-http port: OpenSSL reads an HTTP answer as a TLS record.
    const where = `${hostname}:${port || (protocol === 'https:' ? '443' : '80')}`;
    return {
      code,
      retryable: false,
      message: `the server at ${where} did not answer TLS (is it plain http? try http://)`,
    };
  }
  if (code === 'EPROTO') {
    return {
      code,
      retryable: false,
      message: `the TLS handshake with ${host} failed`,
      hint: 'check that the base URL uses the right scheme (https or http) and port',
    };
  }
  if (code && TLS_CODE.test(code)) {
    return {
      code,
      retryable: false,
      message: `the TLS certificate of ${host} was not accepted (${code})`,
      hint: 'for a private certificate authority, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem',
    };
  }
  return undefined;
}
