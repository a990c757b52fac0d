/** The package version, set by the build (scripts/build.mjs); '0.0.0-dev' when run from source. */
declare const SVCCTL_VERSION: string | undefined;

export const VERSION: string = typeof SVCCTL_VERSION === 'string' ? SVCCTL_VERSION : '0.0.0-dev';
