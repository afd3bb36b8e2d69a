// One serializer per file format; generators name the format, this module picks the serializer.
import { serializeNginx } from './serializers/nginx-conf.mjs';
import { serializeApache } from './serializers/apache-conf.mjs';
import { serializeCaddyfile } from './serializers/caddyfile.mjs';
import { serializeRuby } from './serializers/ruby-dsl.mjs';
import { serializeYaml } from './serializers/yaml.mjs';
import { serializeIni, serializePgConf } from './serializers/ini.mjs';
import { serializeSysctl } from './serializers/sysctl.mjs';
import { serializeSystemd } from './serializers/systemd.mjs';
import { serializeEnv } from './serializers/env.mjs';
import { serializeMarkdown } from './serializers/markdown.mjs';
import { serializeHaproxy } from './serializers/haproxy-cfg.mjs';

export const SERIALIZERS = {
  nginx: { fn: serializeNginx, language: 'nginx' },
  apache: { fn: serializeApache, language: 'apache' },
  caddyfile: { fn: serializeCaddyfile, language: 'caddyfile' },
  ruby: { fn: serializeRuby, language: 'ruby' },
  yaml: { fn: serializeYaml, language: 'yaml' },
  ini: { fn: (body, header) => serializeIni(body, header, { prefix: '# ' }), language: 'ini' },
  'ini-semicolon': { fn: (body, header) => serializeIni(body, header, { prefix: '; ' }), language: 'ini' },
  pgconf: { fn: serializePgConf, language: 'ini' },
  sysctl: { fn: serializeSysctl, language: 'ini' },
  systemd: { fn: serializeSystemd, language: 'ini' },
  env: { fn: serializeEnv, language: 'bash' },
  markdown: { fn: serializeMarkdown, language: 'markdown' },
  haproxy: { fn: serializeHaproxy, language: 'plaintext' },
  sql: { fn: (body, header) => `${[...header.map((l) => `-- ${l}`), '', ...body].join('\n')}\n`, language: 'plaintext' }, // highlighted as plain text with -- comments
  // A shell script: the interpreter line first, the generated header after it.
  sh: { fn: (body, header) => `${['#!/bin/sh', ...header.map((l) => `# ${l}`), '', ...body].join('\n')}\n`, language: 'bash' },
  lines: { fn: (body, header) => `${[...header.map((l) => `# ${l}`), '', ...body].join('\n')}\n`, language: 'plaintext' },
};

export function serializeFile(spec, header) {
  const s = SERIALIZERS[spec.format];
  if (!s) throw new Error(`no serializer for ${spec.format}`);
  return { path: spec.path, language: spec.language || s.language, content: s.fn(spec.body, header) };
}

/** Flatten the settings a file carries (name, value, why, evidence) for the page's per-line explanations. */
export function settingsOf(spec) {
  const out = [];
  const walk = (nodes) => {
    for (const n of nodes || []) {
      if (!n || typeof n !== 'object') continue;
      if (n.entries) walk(n.entries);
      if (n.children) walk(n.children);
      const name = n.d || n.call || n.hook || n.key || n.block || n.section;
      if (name && n.why) out.push({ name, value: 'value' in n ? String(typeof n.value === 'object' && n.value ? n.value.raw ?? '' : n.value) : (n.args || []).map((x) => (typeof x === 'object' && x ? x.raw ?? x.sym ?? '' : String(x))).join(' '), why: n.why, evidence: n.evidence || [] });
    }
  };
  walk(Array.isArray(spec.body) ? spec.body : []);
  return out;
}
