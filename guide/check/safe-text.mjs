// Text from configuration files reaches terminals and CI logs: control characters in it could move the cursor,
// clear the screen, set the window title or hide text (ESC and CSI sequences, OSC 8 links, CR, bidi overrides).
// Every C0 control but tab and newline, DEL, every C1 control, the line and paragraph separators and the bidi
// controls are shown as visible escapes (\x1B, \u202E) instead.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const hex = (c, w) => c.charCodeAt(0).toString(16).toUpperCase().padStart(w, '0');

/** For terminals: \x1B, \u202E… as visible text. */
export function terminalSafe(s) {
  return String(s).replace(UNSAFE, (c) => (c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/** For JSON already serialised: the same characters as \uXXXX escapes (the data is unchanged, the bytes are inert). */
export function jsonSafe(json) {
  return json.replace(UNSAFE, (c) => `\\u${hex(c, 4)}`);
}
