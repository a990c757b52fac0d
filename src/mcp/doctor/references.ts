// Each client's reference syntax: docs/mcp.md, "svcctl mcp doctor". ${input:id} (VS Code prompts) cannot be checked
// from outside VS Code. Only variable names are ever reported.
import type { ClientSpec } from '../types.js';

export interface ReferenceSyntax {
  /** ${VAR} and ${VAR:-default}. */
  braces: boolean;
  /** ${env:VAR}. */
  envColon: boolean;
  /** {env:VAR}, no dollar. */
  envBrace: boolean;
  /** $VAR (Gemini CLI). */
  bare: boolean;
  /** A reference to an unset variable stays as written instead of becoming '' (Qwen Code). */
  keepsUnset?: boolean;
  /** With keepsUnset: names the entry's own env block sets, left for mcp-remote to expand (not missing). */
  entryNames?: ReadonlySet<string>;
}

/** A generic file (no client) is read with both brace forms. */
export function referenceSyntaxOf(client: ClientSpec | null): ReferenceSyntax {
  if (client === null) return { braces: true, envColon: true, envBrace: false, bare: false };
  const syntax = client.variables;
  return {
    braces: syntax === 'dollar-brace',
    envColon: syntax === 'env-colon',
    envBrace: syntax === 'env-brace',
    bare: client.bareVariables === true,
    keepsUnset: client.keepsUnsetReferences === true,
  };
}

export const MCP_REMOTE_SYNTAX: ReferenceSyntax = { braces: true, envColon: false, envBrace: false, bare: false };

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
// ${env:X} is tried before {env:X} at the same text, so a {env:X} match never starts inside a ${env:X}.
const PATTERN = new RegExp(
  `\\$\\{input:([^}]+)\\}|\\$\\{env:(${NAME})\\}|\\$\\{(${NAME})(?::-([^}]*))?\\}|\\$(${NAME})|\\{env:(${NAME})\\}`,
  'g',
);

/** Referenced but unset or empty is "missing"; ${input:…} is "unresolvable" and left as written. */
export class Resolver {
  readonly referenced = new Set<string>();
  readonly missing = new Set<string>();
  readonly inputs = new Set<string>();
  /** Resolved values of referenced variables: redacted from anything shown. */
  readonly values = new Set<string>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private lookup(name: string, env: NodeJS.ProcessEnv = this.env): string | undefined {
    this.referenced.add(name);
    const value = env[name];
    if (value === undefined || value === '') {
      this.missing.add(name);
      return undefined;
    }
    this.values.add(value);
    return value;
  }

  /** `env` overrides the environment (mcp-remote's own env). */
  text(value: string, syntax: ReferenceSyntax, env?: NodeJS.ProcessEnv): string {
    return value.replace(
      PATTERN,
      (
        whole,
        input?: string,
        envColon?: string,
        brace?: string,
        fallback?: string,
        bare?: string,
        envBrace?: string,
      ) => {
        if (input !== undefined) {
          this.inputs.add(input);
          return whole;
        }
        if (envColon !== undefined) return syntax.envColon ? (this.lookup(envColon, env) ?? '') : whole;
        if (brace !== undefined) {
          if (!syntax.braces) return whole;
          if (fallback !== undefined) {
            const set = (env ?? this.env)[brace];
            if (set === undefined || set === '') return fallback;
          }
          return this.dollar(whole, brace, syntax, env);
        }
        if (bare !== undefined && syntax.bare) return this.dollar(whole, bare, syntax, env);
        if (envBrace !== undefined && syntax.envBrace) return this.lookup(envBrace, env) ?? '';
        return whole;
      },
    );
  }

  private dollar(whole: string, name: string, syntax: ReferenceSyntax, env?: NodeJS.ProcessEnv): string {
    if (syntax.keepsUnset && syntax.entryNames?.has(name)) {
      const set = (env ?? this.env)[name];
      if (set === undefined || set === '') return whole;
    }
    return this.lookup(name, env) ?? (syntax.keepsUnset ? whole : '');
  }

  record(value: Record<string, string>, syntax: ReferenceSyntax): Record<string, string> {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.text(item, syntax)]));
  }

  byName(name: string): string | undefined {
    return this.lookup(name);
  }

  /** Marks a literal value as a secret to redact. */
  secret(value: string | undefined): void {
    if (value) this.values.add(value);
  }
}
