import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import {
  MESSAGES,
  QUERY_OPERATORS,
  type QueryDatasetField,
  type QueryEditResponse,
  type QueryOperatorDto,
} from '@pagewright/shared';
import '../../../lib/i18n';
import { blankFilterRow, type FilterRow } from '../filter-rules';
import { queryWizardLocation } from '../wizard-location';
import { FilterStep } from './filter-step';
import { QueryWizardPage } from './query-wizard';
import { sentJson, urlOf } from '../../../test-support/fetch';

const QUERY_ID = '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c';
const DATASET_ID = '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
const fields: QueryDatasetField[] = [
  { datasetFieldId: '8b9c0d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e', name: 'Name', type: 'TEXT', sequence: 0 },
  { datasetFieldId: '9c0d1e2f-3a4b-4c5d-9e6f-7a8b9c0d1e2f', name: 'Price', type: 'NUMBER', sequence: 1 },
  { datasetFieldId: '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a', name: 'Listed', type: 'DATETIME', sequence: 2 },
];
const operators: QueryOperatorDto[] = QUERY_OPERATORS.map((operator) => ({
  ...operator,
  appliesTo: [...operator.appliesTo],
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Step 3 holding its own rows, as the wizard does; each change is reported to `onRows`. */
function Harness({ onRows }: { onRows: (rows: FilterRow[]) => void }) {
  const [rows, setRows] = useState<FilterRow[]>([blankFilterRow()]);
  const change = (next: FilterRow[]) => {
    setRows(next);
    onRows(next);
  };
  return (
    <FilterStep
      fields={fields}
      operators={operators}
      rows={rows}
      errors={new Map()}
      notice={null}
      onChange={change}
      onRemove={(row) => change(rows.filter((candidate) => candidate !== row))}
    />
  );
}

/** Renders the harness; `lastRows()` is what step 3 holds now. */
function renderFilters() {
  const onRows = vi.fn<(rows: FilterRow[]) => void>();
  render(<Harness onRows={onRows} />);
  return { user: userEvent.setup({ delay: null }), lastRows: () => onRows.mock.calls.at(-1)?.[0] ?? [] };
}

type User = ReturnType<typeof userEvent.setup>;

async function choose(user: User, comboboxName: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: comboboxName }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function operatorNames(user: User) {
  await user.click(screen.getByRole('combobox', { name: 'Operator of filter 1' }));
  const names = within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);
  await user.keyboard('{Escape}');
  return names;
}

describe('filter rows: operators by field type, the value input by operator', () => {
  it('offers the operators that apply to the field’s type', async () => {
    const { user } = renderFilters();
    await choose(user, 'Field of filter 1', 'Name');
    expect(await operatorNames(user)).toEqual([
      'equals',
      'not equals',
      'contains',
      'does not contain',
      'starts with',
      'ends with',
      'in list',
      'not in list',
      'is empty',
      'is not empty',
    ]);
    await choose(user, 'Field of filter 1', 'Price');
    expect(await operatorNames(user)).toEqual([
      '=',
      '≠',
      '>',
      '<',
      '≥',
      '≤',
      'in list',
      'not in list',
      'is empty',
      'is not empty',
    ]);
  });

  it('shows a text input for text operators, a number input for number ones, a ; hint for lists', async () => {
    const { user, lastRows } = renderFilters();
    await choose(user, 'Field of filter 1', 'Name');
    await choose(user, 'Operator of filter 1', 'contains');
    const text = screen.getByRole<HTMLInputElement>('textbox', { name: 'Value of filter 1' });
    expect(text.type).toBe('text');
    await user.type(text, 'app');
    expect(lastRows()[0]?.inputValue).toBe('app');

    // Another kind of value: the typed one goes, the list hint shows.
    await choose(user, 'Operator of filter 1', 'in list');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Value of filter 1' }).value).toBe('');
    expect(screen.getByText('Separate values with ;')).toBeTruthy();

    // A field whose type the operator does not apply to clears the operator.
    await choose(user, 'Operator of filter 1', 'starts with');
    await choose(user, 'Field of filter 1', 'Price');
    expect(screen.getByRole('combobox', { name: 'Operator of filter 1' }).textContent).not.toContain(
      'starts with',
    );
    expect(screen.queryByRole('textbox', { name: 'Value of filter 1' })).toBeNull();
    await choose(user, 'Operator of filter 1', '>');
    expect(screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Value of filter 1' }).type).toBe(
      'number',
    );
  });

  it('shows a date input for date operators, two for between (from;to), none for no-value operators', async () => {
    const { user, lastRows } = renderFilters();
    await choose(user, 'Field of filter 1', 'Listed');
    await choose(user, 'Operator of filter 1', 'on or after');
    const date = screen.getByLabelText<HTMLInputElement>('Value of filter 1');
    expect(date.type).toBe('date');

    await choose(user, 'Operator of filter 1', 'between');
    const from = screen.getByLabelText<HTMLInputElement>('From date of filter 1');
    const to = screen.getByLabelText<HTMLInputElement>('To date of filter 1');
    expect([from.type, to.type]).toEqual(['date', 'date']);
    await user.type(from, '2026-01-01');
    await user.type(to, '2026-01-31');
    expect(lastRows()[0]?.inputValue).toBe('2026-01-01;2026-01-31');

    await choose(user, 'Operator of filter 1', 'last 7 days');
    expect(screen.queryByLabelText('Value of filter 1')).toBeNull();
    expect(screen.queryByLabelText('From date of filter 1')).toBeNull();
  });

  it('adds and removes filter rows', async () => {
    const { user } = renderFilters();
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(screen.getAllByTestId('query-filter-row')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove filter 1' }));
    await user.click(screen.getByRole('button', { name: 'Remove filter 1' }));
    expect(screen.queryAllByTestId('query-filter-row')).toHaveLength(0);
    expect(screen.getByText('No filters: every row shows.')).toBeTruthy();
  });
});

describe('the query wizard run from the dashboard (Execute)', () => {
  let filterBodies: unknown[];

  beforeEach(() => {
    filterBodies = [];
    const edited: QueryEditResponse = {
      query: {
        id: QUERY_ID,
        name: 'Cheap items',
        description: 'Under 10',
        type: 'CUSTOM',
        timeZone: 'UTC',
        datasetId: DATASET_ID,
        datasetName: 'Prices',
        updatedAt: '2026-03-01T10:00:00.000Z',
      },
      queryDataset: { id: DATASET_ID, name: 'Prices', description: 'Daily', type: 'CUSTOM', hasData: true },
      queryFieldList: [],
      queryFilterList: [],
    };
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        const url = urlOf(input);
        if (url === '/api/query/datasetoperator') return Promise.resolve(json(operators));
        if (url === `/api/query/editquery?queryId=${QUERY_ID}`) return Promise.resolve(json(edited));
        if (url === '/api/query/datasetfieldqueryForFilter')
          return Promise.resolve(json({ datasetFieldList: fields, queryFilterList: [] }));
        if (url === '/api/query/filterinputvalue') {
          filterBodies.push(sentJson(init));
          return Promise.resolve(json({ queryFilterList: [] }));
        }
        if (url.startsWith('/api/query/showqueryresult'))
          return Promise.resolve(json({ columns: fields, rows: [], totalOfRows: 0, page: 0, size: 5 }));
        return Promise.reject(new Error(`unexpected call ${url}`));
      }),
    );
  });

  it('starts at the filters, asks for every value before going on, and never offers Save', async () => {
    const location = queryWizardLocation({ queryId: QUERY_ID, name: '', description: '', mode: 'execute' });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[location.to]}>
          <Routes>
            <Route path="/Query" element={<QueryWizardPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('heading', { name: 'Cheap items' })).toBeTruthy();
    expect(screen.getByText('No filters: every row shows.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await choose(user, 'Field of filter 1', 'Price');
    await choose(user, 'Operator of filter 1', '<');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getAllByText(MESSAGES['query.all.fields.mandatory']).length).toBeGreaterThan(0);
    expect(filterBodies).toEqual([]);

    await user.type(screen.getByRole('spinbutton', { name: 'Value of filter 1' }), '10');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('query-total').textContent).toBe('Rows: 0'));
    expect(filterBodies).toEqual([
      {
        filters: [
          {
            queryFilterId: null,
            datasetFieldId: fields[1]!.datasetFieldId,
            operatorId: 10,
            inputValue: '10',
          },
        ],
      },
    ]);
    expect(screen.getByRole('button', { name: 'Export to spreadsheet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
