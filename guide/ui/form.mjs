// The question form, built from the engine's QUESTIONS: one fieldset per group,
// native controls with labels, help text and a per-field note.
import { h } from './dom.mjs';

const fieldId = (key) => 'q-' + key;

export function buildForm(form, questions) {
  const groups = new Map();
  for (const q of questions) {
    if (!groups.has(q.group)) groups.set(q.group, []);
    groups.get(q.group).push(q);
  }
  const fieldsets = [];
  for (const [group, qs] of groups) {
    fieldsets.push(h('fieldset', { class: 'guide-group' }, h('legend', null, group), qs.map(buildField)));
  }
  form.replaceChildren(...fieldsets);
}

function buildField(q) {
  const id = fieldId(q.key);
  const helpId = id + '-help';
  const noteId = id + '-note';
  const describedBy = (q.help ? helpId + ' ' : '') + noteId;
  let control;
  if (q.type === 'enum') {
    control = h('select', { id, name: q.key, 'aria-describedby': describedBy },
      q.options.map((o) => h('option', { value: o.value }, o.label)));
  } else if (q.type === 'boolean') {
    control = h('input', { id, name: q.key, type: 'checkbox', 'aria-describedby': describedBy });
  } else if (q.type === 'integer' || q.type === 'number') {
    control = h('input', {
      id, name: q.key, type: 'number', inputmode: q.type === 'integer' ? 'numeric' : 'decimal',
      min: q.min, max: q.max, step: q.type === 'integer' ? 1 : 'any', 'aria-describedby': describedBy,
    });
  } else {
    control = h('input', {
      id, name: q.key, type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
      maxlength: 64, 'aria-describedby': describedBy,
    });
  }
  const label = h('label', { for: id }, q.label);
  const cls = 'guide-field guide-field-' + (q.type === 'boolean' ? 'check' : 'input');
  return h('div', { class: cls, 'data-key': q.key },
    q.type === 'boolean' ? [control, label] : [label, control],
    q.help ? h('p', { class: 'guide-help', id: helpId }, q.help) : null,
    h('p', { class: 'guide-field-note', id: noteId, 'aria-live': 'polite' }));
}

/** The form's current values as raw strings (what a URL would carry). */
export function readForm(form, questions) {
  const raw = {};
  for (const q of questions) {
    const el = form.elements.namedItem(q.key);
    if (!el) continue;
    raw[q.key] = q.type === 'boolean' ? String(el.checked) : el.value;
  }
  return raw;
}

/** Puts answers into the controls. */
export function writeForm(form, questions, answers) {
  for (const q of questions) {
    const el = form.elements.namedItem(q.key);
    if (!el) continue;
    if (q.type === 'boolean') el.checked = Boolean(answers[q.key]);
    else el.value = String(answers[q.key]);
  }
}

/** Shows per-field notes (input that was not understood) and marks the fields invalid. */
export function showFieldNotes(form, questions, notes) {
  const byKey = new Map();
  for (const n of notes) if (n.key && !byKey.has(n.key)) byKey.set(n.key, n.message);
  for (const q of questions) {
    const el = form.elements.namedItem(q.key);
    const note = form.querySelector('#' + fieldId(q.key) + '-note');
    if (!el || !note) continue;
    const msg = byKey.get(q.key) || '';
    if (note.textContent !== msg) note.textContent = msg;
    if (msg) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
  }
}
