// Limits on what the doctor reads, so that a huge tree, a huge file or a YAML alias bomb ends with a
// clear message instead of exhausting memory. Shared by the CLI and the page.
export const LIMITS = Object.freeze({
  fileBytes: 1024 * 1024, // a config file larger than 1 MiB is not a config file
  totalBytes: 8 * 1024 * 1024,
  files: 300,
  depth: 8, // directory levels below a PATH given on the command line
  rakeFiles: 100, // lib/tasks/**/*.rake files read from an app root (two folders deep)
  appUnits: 10, // systemd units an app root ships (config/etc/*.service, deploy/*.service…: app-extras.mjs)
  startScripts: 4, // shell scripts the Procfile's web line or the Dockerfile's CMD/ENTRYPOINT runs (app-extras.mjs)
  initializers: 100, // config/initializers/*.rb scanned for queue_adapter (only those naming it are read as input)
  jobClasses: 4, // app/jobs/*.rb files read (ApplicationJob and three jobs: enough to know the app has jobs)
  gemfileParts: 20, // files a Gemfile evaluates (eval_gemfile, instance_eval of bundler.d/*.rb) read from an app root
  jobProcesses: 50, // GoodJob CLI processes judged per check (good-job.mjs): segments of deployment commands
  yamlAliases: 100, // `yaml` package maxAliasCount: expanding more aliases than this is refused
  rubyTokens: 200000,
  nesting: 200, // brackets/blocks in Ruby and nginx files
  expressionTokens: 256, // tokens in one Ruby value that the reader tries to resolve; longer ones stay unknown
  erbTags: 50000, // ERB tags in one database.yml
  diffLineChars: 1000, // a suggested diff is left out when the line it shows is longer
  reportLineChars: 2000, // text report lines are cut here (a value read from a 1 MB line is not printed whole)
  pageSeconds: 10,
  cliSeconds: 60, // the CLI stops a check (terminates its worker thread) after this long; --time-limit changes it // the wizard page stops a check (terminates its worker) after this long
  yamlDepth: 20, // YAML levels (block indentation, "- ", flow [ {) and alias hops; database.yml uses 3
});

/** A file is binary if it has a NUL byte in its first 8 KiB (text configs never do). */
export function looksBinary(bytes) {
  return bytes.subarray(0, 8192).includes(0);
}

/**
 * Text of a file's bytes → {text, notes}. Not valid UTF-8 (a Latin-1 "é" in a comment) is not a reason to refuse
 * the file: it is decoded with U+FFFD in place of each bad sequence, and a note says where the first one is.
 * A leading byte-order mark is dropped.
 */
export function decodeText(bytes) {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''), notes: [] };
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
    const first = text.indexOf('\uFFFD');
    let line = 1;
    for (let k = 0; k < first; k++) if (text.charCodeAt(k) === 10) line++;
    let count = 0;
    for (let k = first; k >= 0; k = text.indexOf('\uFFFD', k + 1)) count++;
    return { text, notes: [{ line, message: `not valid UTF-8 (Latin-1 or another encoding?): ${count} byte sequence(s) read as U+FFFD (the replacement character), the first on this line; save the file as UTF-8` }] };
  }
}
