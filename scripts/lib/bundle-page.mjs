// Bundles a page's ES module entry into a first-load file plus chunks fetched by its dynamic import()s.
// Rollup, not esbuild, does the chunking: Rollup puts a module that the entry imports statically into the entry
// file and lets the lazy chunks import it from there, whereas esbuild's splitting makes one shared chunk per set
// of importers, which for the wizard meant nine extra first-load requests and about 3 KB more gzip (measured
// 2026-11-25). esbuild then minifies each file, as it did before.
import { rollup } from 'rollup';
import { transform } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

// Bare specifiers (d3-selection, fflate) resolve to the package's browser ES module: its "exports" read with the
// conditions a browser bundler uses (browser, import, default; never node or require), else its "module" field.
const CONDITIONS = ['browser', 'import', 'default'];
function pick(target) {
  if (typeof target === 'string') return target;
  for (const c of CONDITIONS) if (target && target[c] !== undefined) return pick(target[c]);
  return null;
}
const nodeResolve = {
  name: 'browser-resolve',
  resolveId(source) {
    if (source.startsWith('.') || source.startsWith('/') || source.startsWith('\0')) return null;
    const [, pkg, sub = ''] = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(source);
    const dir = join(ROOT, 'node_modules', pkg);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const exported = meta.exports && pick(typeof meta.exports === 'string' || !('.' in meta.exports) ? meta.exports : meta.exports['.' + sub]);
    const file = exported || (!sub && (meta.module || meta.main)) || sub.slice(1);
    if (!file) throw new Error(`cannot resolve ${source} for the browser`);
    return join(dir, file);
  },
};

/**
 * → [{ fileName, isEntry, imports, dynamicImports, bytes, modules: [{ id, bytes }] }] with the files written to
 * outDir; bytes are minified sizes, module bytes are Rollup's rendered (pre-minification) sizes.
 */
export async function bundlePage({ entry, outDir, entryName, chunkPrefix, target }) {
  // preserveEntrySignatures: false — nothing imports the entry's exports, so Rollup need not keep a facade file for them.
  const bundle = await rollup({ input: entry, preserveEntrySignatures: false, plugins: [nodeResolve], onwarn(w, warn) { if (w.code !== 'CIRCULAR_DEPENDENCY') warn(w); } });
  try {
    const { output } = await bundle.generate({ format: 'es', entryFileNames: `${entryName}.js`, chunkFileNames: `${chunkPrefix}[name]-[hash].js` });
    const files = [];
    for (const chunk of output) {
      if (chunk.type !== 'chunk') continue;
      const { code } = await transform(chunk.code, { minify: true, format: 'esm', target, legalComments: 'none', loader: 'js' });
      writeFileSync(join(outDir, chunk.fileName), code);
      files.push({
        fileName: chunk.fileName,
        isEntry: chunk.isEntry,
        imports: chunk.imports,
        dynamicImports: chunk.dynamicImports,
        bytes: Buffer.byteLength(code),
        modules: Object.entries(chunk.modules).map(([id, m]) => ({ id, bytes: m.renderedLength })),
      });
    }
    return files;
  } finally {
    await bundle.close();
  }
}
