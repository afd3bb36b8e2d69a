// One way to print a cell, shared by the HTML table and the CSV download so both show the same text.
import { isNumeric } from './chart-spec.mjs';

export const UNKNOWN = '—';

export function formatCell(column, value) {
  if (value === null || value === undefined) return UNKNOWN;
  if (typeof value === 'string') return value; // text cell or failure marker, verbatim
  if (isNumeric(column) && column.decimals !== undefined) return value.toFixed(column.decimals);
  return String(value);
}

export function columnHeading(column) {
  return column.unit && column.unit !== 'none' ? `${column.label} [${column.unit}]` : column.label;
}

export function toCsv(dataset) {
  const q = (s) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const head = dataset.columns.map((c) => q(columnHeading(c))).join(',');
  const body = dataset.rows.map((row) => row.map((v, i) => q(formatCell(dataset.columns[i], v))).join(','));
  return [head, ...body].join('\r\n') + '\r\n';
}
