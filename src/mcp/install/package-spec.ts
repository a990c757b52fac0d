// Which package specs an entry may run: npx -y runs URLs, paths and `-` options too (architecture.md "Package specs").

/** npm's rules for a package name (docs.npmjs.com/cli/v11/configuring-npm/package-json#name and
 * github.com/npm/validate-npm-package-name, read 2026-11-28): at most 214 characters with the scope, lowercase,
 * URL-safe, not starting with `.` or `_`; a scope is `@scope/`. The version or tag after `@` is a version, a range that
 * starts with `^` or `~`, or a dist-tag: no `:`, `/` or space, so none of them can be a URL or a path. */
const REGISTRY_SPEC = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(?:@[\^~]?[A-Za-z0-9][A-Za-z0-9._+-]*)?$/;
const MAX_NAME = 214;
/** npm-package-arg takes a name, or a version after `@`, that ends like a tarball as a path to that file, relative to
 * the folder npx runs in (`isFileType = /[.](?:tgz|tar\.gz|tar)$/i`, applied to the name and to the spec:
 * github.com/npm/npm-package-arg/blob/main/lib/npa.js, read 2026-11-28): `evil.tgz` is the project's own file. */
const TARBALL_ENDING = /[.](?:tgz|tar\.gz|tar)$/i;

/** Why `spec` is not a registry name with an optional version or tag; undefined when it is one. */
export function registrySpecProblem(spec: string): string | undefined {
  if (spec.startsWith('-')) return 'starts with "-", which npx would read as an option of its own';
  if (!REGISTRY_SPEC.test(spec))
    return 'must be a registry package name with an optional version or tag (name, name@1.2.3, @scope/name@latest): not a URL, path, git or file: spec';
  const at = spec.indexOf('@', 1);
  const name = spec.slice(0, at === -1 ? undefined : at);
  if (TARBALL_ENDING.test(name) || (at !== -1 && TARBALL_ENDING.test(spec.slice(at + 1))))
    return 'ends in .tgz, .tar.gz or .tar, which npx reads as the path of a tarball in the folder it runs in';
  if (name.length > MAX_NAME) return `names a package of more than ${MAX_NAME} characters`;
  return undefined;
}

/** Why a spec typed by the user cannot be run; undefined when npx would take it as a package. */
export function typedSpecProblem(spec: string): string | undefined {
  if (spec.trim() === '') return 'must not be empty';
  if (spec.startsWith('-')) return 'starts with "-", which npx would read as an option of its own';
  return undefined;
}
