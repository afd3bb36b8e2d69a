// CHECKLIST.md: the advice as a printable task list, plus the install steps.
export const id = 'checklist';

export function finish({ advice, warnings, files }) {
  const blocks = [
    { h: 1, text: 'Checklist' },
    { h: 2, text: 'Configuration' },
    { list: files.filter((f) => !f.path.startsWith('migrate-to/') && f.path !== 'README.md').map((f) => `Install ${f.path} (see README.md)`), task: true },
  ];
  const errors = warnings.filter((w) => w.severity !== 'info');
  if (errors.length) {
    blocks.push({ h: 2, text: 'Resolve first' }, { list: errors.map((w) => `${w.message} ${w.suggestion || ''}`.trim()), task: true });
  }
  blocks.push({ h: 2, text: 'Application and operations' });
  blocks.push({ list: advice.map((x) => `${x.title}: ${x.body} (evidence: ${x.evidence.map((e) => e.url).join(', ')})`), task: true });
  return [{ path: 'CHECKLIST.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
