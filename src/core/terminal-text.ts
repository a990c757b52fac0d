// Text from elsewhere (a server's answer, a project's file, an MCP server) may carry terminal escape sequences that
// could fake svcctl's own lines. C1 controls count too: some terminals read U+009B as a CSI.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Shown as \u001b etc.; tab and line feed stay. In JSON text only DEL and C1 can be raw, so its value is kept. */
export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
