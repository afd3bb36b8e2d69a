// Errors about the input (not bugs): each names the problem, the file and line, and what to do.
// The CLI exits with status 2 when any was raised.
export class InputError extends Error {
  constructor(code, file, line, message, fix) {
    super(message);
    this.code = code;
    this.file = file;
    this.line = line || 0;
    this.fix = fix;
  }

  toJSON() {
    return { code: this.code, file: this.file, line: this.line, message: this.message, fix: this.fix };
  }
}

/** Plain object for reports from an InputError or any other exception raised by a reader. */
export function inputProblem(e, file) {
  if (e instanceof InputError) return e.toJSON();
  if (e instanceof RangeError) return { code: 'too-deep', file, line: 0, message: 'nested too deeply to read', fix: 'check for unclosed brackets or blocks' };
  return { code: 'unreadable', file, line: 0, message: `cannot read: ${String(e && e.message || e).split('\n')[0]}`, fix: 'check the file\u2019s syntax' };
}
