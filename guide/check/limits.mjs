// Limits on what the doctor reads, so that a huge tree, a huge file or a YAML alias bomb ends with a
// clear message instead of exhausting memory. Shared by the CLI and the page.
export const LIMITS = Object.freeze({
  fileBytes: 1024 * 1024, // a config file larger than 1 MiB is not a config file
  totalBytes: 8 * 1024 * 1024,
  files: 300,
  depth: 8, // directory levels below a PATH given on the command line
  yamlAliases: 100, // `yaml` package maxAliasCount: expanding more aliases than this is refused
  rubyTokens: 200000,
  nesting: 200, // brackets/blocks in Ruby and nginx files
  expressionTokens: 256, // tokens in one Ruby value that the reader tries to resolve; longer ones stay unknown
  erbTags: 50000, // ERB tags in one database.yml
  yamlDepth: 20, // YAML levels (block indentation, "- ", flow [ {) and alias hops; database.yml uses 3
});

/** A file is binary if it has a NUL byte or is not valid UTF-8 in its first 8 KiB. */
export function looksBinary(bytes) {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? trimPartial(head) : head);
    return false;
  } catch {
    return true;
  }
}

// Do not call a file binary because the 8 KiB cut fell inside a multi-byte character.
function trimPartial(b) {
  let end = b.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const c = b[end - i];
    if ((c & 0xc0) === 0xc0) return b.subarray(0, end - i);
    if ((c & 0x80) === 0) break;
  }
  return b;
}
