// JSON report: everything but the generated bundle's file contents (paths only).
export function reportJson(r) {
  const { bundle, ...rest } = r;
  return `${JSON.stringify({ ...rest, bundle: bundle.files.map((f) => f.path) }, null, 2)}\n`;
}
