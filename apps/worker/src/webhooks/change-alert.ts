import { escapeHtml, layout, type OutgoingMail } from '@pagewright/mail';
import type { PrismaClient } from '@pagewright/db';
import { stepValueSchema } from '@pagewright/shared';

/** Rows listed per kind (added, removed, changed) and table, in the e-mail and the webhook. */
export const CHANGE_ALERT_LIST_MAX = 50;

type Cell = string | number | null;

/** One Get table of a run: its label, column labels and rows (its last step when it looped). */
export interface RunTable {
  key: string;
  label: string;
  columns: string[];
  rows: Cell[][];
}

export interface TableChanges {
  table: string;
  columns: string[];
  added: number;
  removed: number;
  changed: number;
  /** The first CHANGE_ALERT_LIST_MAX of each kind. */
  addedRows: Cell[][];
  removedRows: Cell[][];
  changedRows: { before: Cell[]; after: Cell[] }[];
}

/** The Get tables of a run, by action (a table whose action is gone is keyed by its label). */
export async function tablesOfRun(db: PrismaClient, runId: string): Promise<Map<string, RunTable>> {
  const steps = await db.runStep.findMany({
    where: { runId, actionType: 'GET_TABLE' },
    orderBy: [{ sequence: 'asc' }, { timestamp: 'asc' }],
    select: { actionId: true, sequence: true, label: true, value: true },
  });
  const tables = new Map<string, RunTable>();
  for (const step of steps) {
    const value = stepValueSchema.safeParse(step.value);
    if (!value.success || value.data.kind !== 'table') continue;
    const label = step.label?.trim() || `Get table (${step.sequence})`;
    const key = step.actionId ?? `label:${label}`;
    tables.set(key, {
      key,
      label,
      columns: value.data.columns.map((column) => column.label),
      rows: value.data.rows,
    });
  }
  return tables;
}

/**
 * A row's identity: its first cell when the table has more than one column (the first column of a
 * read table is what names a row: a product, an account, a date), else the whole row.
 */
const rowKey = (row: readonly Cell[]) => JSON.stringify(row.length > 1 ? [row[0] ?? null] : row);
const sameRow = (a: readonly Cell[], b: readonly Cell[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What differs between a run's Get tables and the previous successful run's, table by table: rows
 * whose key is new (added), gone (removed), or kept with other values (changed). A table only one
 * of the two runs read counts wholly as added or removed.
 */
export function diffRunTables(
  previous: Map<string, RunTable>,
  current: Map<string, RunTable>,
): TableChanges[] {
  const changes: TableChanges[] = [];
  for (const key of new Set([...previous.keys(), ...current.keys()])) {
    const before = previous.get(key);
    const after = current.get(key);
    const beforeRows = new Map((before?.rows ?? []).map((row) => [rowKey(row), row]));
    const afterRows = new Map((after?.rows ?? []).map((row) => [rowKey(row), row]));
    const added = [...afterRows].filter(([rowId]) => !beforeRows.has(rowId)).map(([, row]) => row);
    const removed = [...beforeRows].filter(([rowId]) => !afterRows.has(rowId)).map(([, row]) => row);
    const changed = [...afterRows].flatMap(([rowId, row]) => {
      const old = beforeRows.get(rowId);
      return old && !sameRow(old, row) ? [{ before: old, after: row }] : [];
    });
    if (added.length + removed.length + changed.length === 0) continue;
    changes.push({
      table: (after ?? before)?.label ?? key,
      columns: (after ?? before)?.columns ?? [],
      added: added.length,
      removed: removed.length,
      changed: changed.length,
      addedRows: added.slice(0, CHANGE_ALERT_LIST_MAX),
      removedRows: removed.slice(0, CHANGE_ALERT_LIST_MAX),
      changedRows: changed.slice(0, CHANGE_ALERT_LIST_MAX),
    });
  }
  return changes;
}

const cellText = (cell: Cell) => (cell === null ? '' : String(cell));
const rowText = (row: readonly Cell[]) => row.map(cellText).join(' | ');

/** The change alert e-mail: per table, the rows added, removed and changed (the first 50 of each). */
export function changeAlertMail(options: {
  to: string;
  firstName: string;
  extractorName: string;
  changes: readonly TableChanges[];
  resultsUrl: string;
}): OutgoingMail {
  const { to, firstName, extractorName, changes, resultsUrl } = options;
  const more = (count: number, listed: number) => (count > listed ? ` (first ${listed} of ${count})` : '');
  const textParts = changes.map((table) =>
    [
      `${table.table} (${table.columns.join(' | ')}): ${table.added} added, ${table.removed} removed, ${table.changed} changed`,
      ...(table.added > 0
        ? [
            `Added${more(table.added, table.addedRows.length)}:`,
            ...table.addedRows.map((row) => `+ ${rowText(row)}`),
          ]
        : []),
      ...(table.removed > 0
        ? [
            `Removed${more(table.removed, table.removedRows.length)}:`,
            ...table.removedRows.map((row) => `- ${rowText(row)}`),
          ]
        : []),
      ...(table.changed > 0
        ? [
            `Changed${more(table.changed, table.changedRows.length)}:`,
            ...table.changedRows.map((row) => `~ ${rowText(row.before)}  →  ${rowText(row.after)}`),
          ]
        : []),
    ].join('\n'),
  );
  const list = (title: string, rows: string[]) =>
    rows.length === 0
      ? ''
      : `<p><b>${escapeHtml(title)}</b></p><ul>${rows.map((row) => `<li>${escapeHtml(row)}</li>`).join('')}</ul>`;
  const htmlParts = changes.map(
    (table) =>
      `<h3>${escapeHtml(table.table)}</h3><p>${table.added} added, ${table.removed} removed, ${table.changed} changed</p>` +
      list(`Added${more(table.added, table.addedRows.length)}`, table.addedRows.map(rowText)) +
      list(`Removed${more(table.removed, table.removedRows.length)}`, table.removedRows.map(rowText)) +
      list(
        `Changed${more(table.changed, table.changedRows.length)}`,
        table.changedRows.map((row) => `${rowText(row.before)}  →  ${rowText(row.after)}`),
      ),
  );
  return {
    to,
    subject: `Pagewright: the data of "${extractorName}" changed`,
    text: `Hello ${firstName},\n\nThe last run of "${extractorName}" read data that differs from its previous successful run.\n\n${textParts.join('\n\n')}\n\nThe run's results: ${resultsUrl}`,
    html: layout(
      `The data of ${extractorName} changed`,
      `<p>Hello ${escapeHtml(firstName)},</p><p>The last run of <b>${escapeHtml(extractorName)}</b> read data that differs from its previous successful run.</p>${htmlParts.join('')}<p><a href="${escapeHtml(resultsUrl)}">The run's results</a></p>`,
    ),
  };
}
