// Generated hostile inputs for the fuzz tests (tests/doctor/fuzz-readers.test.mjs, the page test):
// unclosed braces and tags, deep nesting, many tags and keys, control bytes, huge lines. Each is built
// to the size given so that a quadratic reader takes minutes on it and a linear one milliseconds.
const times = (s, n) => s.repeat(Math.max(0, Math.floor(n)));

/** [{name, text}] of about `size` characters each. */
export function hostileInputs(size = 256 * 1024) {
  const n = (unit) => size / unit.length;
  const nest = 900;
  return [
    // Unclosed: every opener a reader scans forward from, with no closer anywhere.
    { name: 'unclosed ${', text: `set $a ${times('${', n('${'))}` },
    { name: 'unclosed ${ per line', text: times('x ${y\n', n('x ${y\n')) },
    { name: 'unclosed <%', text: `production:\n  pool: ${times('<%', n('<%'))}` },
    { name: 'unclosed <%=', text: times('a: <%= ENV["X"]\n', n('a: <%= ENV["X"]\n')) },
    { name: 'unclosed {', text: times('server {\n', n('server {\n')) },
    { name: 'unclosed [', text: times('[', n('[')) },
    { name: 'unclosed (', text: `workers ${times('(', n('('))}` },
    { name: 'unclosed quote', text: `threads "${times('a', size)}` },
    { name: 'unclosed #{', text: `bind "${times('#{', n('#{'))}` },
    { name: 'unclosed heredocs', text: times('x = <<~EOS\n', n('x = <<~EOS\n')) },
    { name: 'unclosed %w(', text: times('%w(', n('%w(')) },
    { name: 'unclosed <Section', text: times('<Directory a\n', n('<Directory a\n')) },
    { name: 'unclosed =begin', text: `\n=begin\n${times('x\n', n('x\n'))}` },
    // Deep nesting.
    { name: 'nested {}', text: `${times('a {\n', nest)}${times('}\n', nest)}` },
    { name: 'nested YAML maps', text: Array.from({ length: nest }, (_, k) => `${' '.repeat(k)}k${k}:`).join('\n') + ' 1\n' },
    { name: 'nested YAML flow', text: `production: ${times('[', nest)}${times(']', nest)}\n` },
    { name: 'nested YAML sequences', text: Array.from({ length: nest }, (_, k) => `${' '.repeat(k * 2)}-`).join('\n') + ' 1\n' },
    { name: 'nested Ruby blocks', text: `${times('foo do\n', nest)}${times('end\n', nest)}` },
    { name: 'nested Ruby ifs', text: `${times('if x\n', nest)}workers 2\n${times('end\n', nest)}` },
    { name: 'nested parentheses', text: `workers ${times('(', nest)}1${times(')', nest)}\n` },
    { name: 'nested sections', text: `${times('<Location />\n', nest)}${times('</Location>\n', nest)}` },
    // Many tags and keys.
    { name: 'many ERB tags', text: `production:\n${times('  a: <%= ENV.fetch("X") { 5 } %>\n', n('  a: <%= ENV.fetch("X") { 5 } %>\n'))}` },
    { name: 'many ERB statements', text: `production:\n${times('<% x = 1 %>\n', n('<% x = 1 %>\n'))}` },
    { name: 'many keys', text: `production:\n${Array.from({ length: Math.floor(size / 14) }, (_, k) => `  key${k}: ${k}`).join('\n')}\n` },
    { name: 'many same keys', text: `production:\n${times('  pool: 5\n', n('  pool: 5\n'))}` },
    { name: 'many directives', text: times('worker_connections 1;\n', n('worker_connections 1;\n')) },
    { name: 'many calls', text: times('workers 2\n', n('workers 2\n')) },
    { name: 'many anchors', text: Array.from({ length: Math.floor(size / 24) }, (_, k) => `a${k}: &a${k}\n  <<: *a${Math.max(0, k - 1)}`).join('\n') },
    // Control bytes and odd whitespace.
    { name: 'C0/C1 controls', text: Array.from({ length: size }, (_, k) => String.fromCharCode([1, 7, 8, 11, 12, 27, 127, 0x85, 0x9b, 0xa0, 0x2028, 10][k % 12])).join('') },
    { name: 'ESC/OSC sequences', text: times('workers 2 # \u001b]0;owned\u0007\u001b[2J\u001b[31m\n', n('workers 2 # \u001b]0;owned\u0007\u001b[2J\u001b[31m\n')) },
    { name: 'form feeds', text: times('a\fb;\v', n('a\fb;\v')) },
    // Huge lines.
    { name: 'one line of spaces', text: `a = ${' '.repeat(size)}b` },
    { name: 'one line of letters', text: times('a', size) },
    { name: 'one line of <', text: `<${times('a', size)}` },
    { name: 'one line of #', text: times('#', size) },
    { name: 'one line of spaces then #x', text: `a=${' '.repeat(size)}x` },
    { name: 'spaces between words', text: `a${' '.repeat(size)}b\n` },
    { name: 'one line of :', text: times('a:', n('a:')) },
    { name: 'one line of quotes', text: times('"a" ', n('"a" ')) },
    { name: 'one line of backslashes', text: times('\\', size) },
    { name: 'one line of -', text: times('- ', n('- ')) },
    { name: 'one line of digits', text: `workers ${times('9', size)}` },
  ];
}

/**
 * File names that send a text to each reader (classify.mjs). The deployment files (sidekiq.yml, queue.yml, Kamal's
 * deploy.yml, Procfile, Dockerfile) are listed too: a name no reader knows yet is skipped, and once one does, the
 * fuzz tests cover it.
 */
export const READER_PATHS = ['config/puma.rb', 'config/unicorn.rb', 'config/pitchfork.rb', 'config/environments/production.rb', 'Gemfile', 'Gemfile.lock',
  '.ruby-version', '.tool-versions', 'config/database.yml', 'nginx.conf', 'apache2.conf', 'Caddyfile', 'postgresql.conf', 'pgbouncer.ini', 'my.cnf',
  'app.service', 'sysctl.d/60-app.conf', 'app.env', 'config/sidekiq.yml', 'config/queue.yml', 'config/deploy.yml', 'Procfile', 'Dockerfile',
  'docker-compose.yml', 'config/application.rb', 'lib/tasks/jobs.rake', 'bin/jobs'];
