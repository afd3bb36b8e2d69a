// CHECKLIST.md: the advice as a printable task list, plus the install steps.
import { t } from '../text.mjs';

export const id = 'checklist';

export function finish({ advice, warnings, files, ctx }) {
  const blocks = [
    { h: 1, text: t('checklist.title') },
    { h: 2, text: t('checklist.config') },
    { list: files.filter((f) => !f.path.startsWith('migrate-to/') && f.path !== 'README.md').map((f) => t('checklist.install', { path: f.path })), task: true },
  ];
  const errors = warnings.filter((w) => w.severity !== 'info');
  if (errors.length) blocks.push({ h: 2, text: t('checklist.resolve') }, { list: errors.map((w) => `${w.message} ${w.suggestion || ''}`.trim()), task: true });
  if (ctx && ctx.linux && ctx.a.init === 'systemd' && !ctx.passengerIntegrated) {
    const ops = ['secrets', 'database', ctx.tls === 'proxy' ? 'certs' : `certs-${ctx.tls}`, 'start', 'deploy', 'rollback', 'sandbox'];
    blocks.push({ h: 2, text: t('checklist.ops') }, { list: ops.map((k) => t(`checklist.ops.${k}`, { domain: ctx.domain })), task: true });
  }
  blocks.push({ h: 2, text: t('checklist.app') });
  blocks.push({ list: advice.map((x) => `${x.title}: ${x.body} (${t('checklist.evidence')}: ${x.evidence.map((e) => e.url).join(', ')})`), task: true });
  return [{ path: 'CHECKLIST.md', format: 'markdown', body: blocks }];
}

export function generate() {
  return {};
}
