// JSON report: everything but the generated bundle's file contents (paths only). Control characters from the
// files are \u-escaped, so printing the report to a terminal is safe too.
import { jsonSafe } from './safe-text.mjs';

export function reportJson(r) {
  const { bundle, ...rest } = r;
  return `${jsonSafe(JSON.stringify({ ...rest, bundle: bundle.files.map((f) => f.path) }, null, 2))}\n`;
}
