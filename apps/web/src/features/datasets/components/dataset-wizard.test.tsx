import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { MESSAGES, type DatasetFieldDto, type DatasetType, type LabelColumnRow } from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { datasetWizardLocation } from '../wizard-location';
import { DatasetWizardPage } from './dataset-wizard';
import { sentJson, urlOf } from '../../../test-support/fetch';

const DATASET_ID = '3a7c1d2e-4b5f-4a6b-8c7d-9e0f1a2b3c4d';
const SAVED_FIELD_ID = '5b8d2e3f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const ACTION_ID = '7c9e3f4a-8b9c-4d0e-8f1a-2b3c4d5e6f7a';
const COLUMN_ID = '9d0f4a5b-0c1d-4e2f-8a3b-4c5d6e7f8a9b';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const offeredRow: LabelColumnRow = {
  actionId: ACTION_ID,
  tableColumnId: COLUMN_ID,
  extractorLabelTableColumnDto: {
    extractorName: 'Shop',
    actionLabel: 'Prices',
    tableName: 'Prices',
    tableColumnName: 'Name',
  },
  actionType: 'GET_TABLE',
  actionSequence: 2,
  extractorId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  valueType: 'TEXT',
};

/** A GET_TEXT without a label of its own, step 70 of the same extractor. */
const unlabeledRow: LabelColumnRow = {
  actionId: '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c',
  tableColumnId: null,
  extractorLabelTableColumnDto: {
    extractorName: 'Shop',
    actionLabel: null,
    tableName: null,
    tableColumnName: null,
  },
  actionType: 'GET_TEXT',
  actionSequence: 70,
  extractorId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  valueType: 'TEXT',
};

const savedField: DatasetFieldDto = {
  id: '5b8d2e3f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  datasetFieldId: '5b8d2e3f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  name: 'Product',
  type: 'TEXT',
  dataSetKey: true,
  sequence: 0,
};

/** The API as the wizard sees it: each call's answer, and the bodies sent. */
let draftFields: DatasetFieldDto[];
let draftSelected: { actionId: string; tableColumnId: string | null }[];
let offered: LabelColumnRow[];
let fetchMock: Mock<typeof fetch>;
const sent = (path: string) =>
  fetchMock.mock.calls.filter(([url]) => urlOf(url) === `/api${path}`).map(([, init]) => sentJson(init));

beforeEach(() => {
  draftFields = [];
  draftSelected = [];
  offered = [offeredRow];
  fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    if (url === '/api/dataset/datasetfieldlist')
      return Promise.resolve(json({ datasetFieldDtoList: draftFields }));
    if (url === '/api/dataset/datasetfield') {
      const { fields } = sentJson(init) as { fields: DatasetFieldDto[] };
      draftFields = fields.map((field, sequence) => ({
        ...field,
        id: field.datasetFieldId ?? null,
        datasetFieldId: field.datasetFieldId ?? null,
        sequence,
      }));
      return Promise.resolve(json({ datasetFieldDtoList: draftFields }));
    }
    if (url === '/api/dataset/datasetlabelcolumn')
      return Promise.resolve(
        json({ labelTablesColumnsDto: offered, labelTablesColumnsSelect: draftSelected }),
      );
    if (url === '/api/dataset/labeltablecolumnlist') {
      const { rows } = sentJson(init) as {
        rows: { actionId: string; tableColumnId: string | null }[];
      };
      return Promise.resolve(
        json({
          labelAndTableColumnDtoList: offered
            .filter((row) =>
              rows.some((key) => key.actionId === row.actionId && key.tableColumnId === row.tableColumnId),
            )
            .map((row) => ({
              ...row,
              checkBoxes: draftFields.map((field) => ({ datasetFieldName: field.name, checked: false })),
            })),
        }),
      );
    }
    if (url === `/api/dataset/save?datasetId=${DATASET_ID}`)
      return Promise.resolve(json({ id: DATASET_ID, message: MESSAGES['dataset.saved'] }));
    if (url === `/api/dataset/edit?datasetId=${DATASET_ID}`) {
      draftFields = [savedField];
      return Promise.resolve(
        json({
          datasetDto: {
            id: DATASET_ID,
            type: 'CUSTOM',
            name: 'Prices',
            description: 'Daily prices',
            dirty: false,
            rowCount: 3,
            updatedAt: '2026-11-01T10:00:00.000Z',
            engineSync: null,
          },
          datasetFieldDtoList: draftFields,
          datasetMap: [],
          labelTablesColumnsDto: offered,
          labelTablesColumnsSelect: [{ actionId: ACTION_ID, tableColumnId: COLUMN_ID }],
          actionList: [],
        }),
      );
    }
    if (url.startsWith('/api/dataset/removedatasetfield/'))
      return Promise.resolve(
        json(
          { message: MESSAGES['dataset.field.remove.query'], code: 'CONFLICT', field: 'datasetFieldId' },
          409,
        ),
      );
    return Promise.reject(new Error(`unexpected call ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  // Toasts live in a store outside React: close them so the next test starts without any.
  for (const toast of screen.queryAllByTestId('toast'))
    fireEvent.click(within(toast).getByRole('button', { name: 'Close' }));
  cleanup();
  vi.unstubAllGlobals();
});

function renderWizard({ isEdit = false, type = 'CUSTOM' }: { isEdit?: boolean; type?: DatasetType } = {}) {
  const location = datasetWizardLocation({
    datasetId: DATASET_ID,
    type,
    name: 'Prices',
    description: 'Daily prices',
    isEdit,
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter
        initialEntries={[{ pathname: '/dataset', search: location.to.split('?')[1], state: location.state }]}
      >
        <Routes>
          <Route path="/dataset" element={<DatasetWizardPage />} />
          <Route path="/dashboard" element={<p>Dashboard</p>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

const nameInput = (number: number) => screen.getByRole('textbox', { name: `Name of field ${number}` });

/** Types a field's name in one go (paste: the rules care about the value, not the keystrokes). */
async function typeName(user: ReturnType<typeof userEvent.setup>, number: number, text: string) {
  await user.click(await screen.findByRole('textbox', { name: `Name of field ${number}` }));
  await user.paste(text);
}

async function chooseType(user: ReturnType<typeof userEvent.setup>, number: number, label: string) {
  await user.click(screen.getByRole('combobox', { name: `Type of field ${number}` }));
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('dataset wizard, step 1: fields', () => {
  it('starts an F-Engine dataset at step 2; Back shows its engine fields read-only', async () => {
    draftFields = [
      { id: null, datasetFieldId: null, name: 'transactionId', type: 'TEXT', dataSetKey: true, sequence: 0 },
      { id: null, datasetFieldId: null, name: 'amount', type: 'NUMBER', dataSetKey: false, sequence: 1 },
    ];
    const user = renderWizard({ type: 'FENGINE_TRANSACTION' });
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    expect((nameInput(1) as HTMLInputElement).value).toBe('transactionId');
    expect((nameInput(1) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Field 2 is a key' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add field' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove field 1' })).toBeNull();
    expect(screen.getByText(/fields of the F-engine entity/)).toBeTruthy();
    // Next sends them back as they are.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(sent('/dataset/datasetfield')).toHaveLength(1));
  });

  it('starts with one TEXT key field; an empty name stops Next with the spec texts', async () => {
    const user = renderWizard();
    expect(await screen.findByRole('heading', { name: 'Prices' })).toBeTruthy();
    expect(nameInput(1)).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Type of field 1' }).textContent).toBe('Text');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Field 1 is a key' }).checked).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(MESSAGES['dataset.field.name.required'])).toBeTruthy();
    expect(nameInput(1).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('toast').textContent).toContain(MESSAGES['dataset.next.step.error']);
    // Blank after trimming counts as empty too.
    await typeName(user, 1, '   ');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(MESSAGES['dataset.field.name.required'])).toBeTruthy();
    expect(sent('/dataset/datasetfield')).toEqual([]);
  });

  it('refuses two fields of the same name (case aside) and marks the later one', async () => {
    const user = renderWizard();
    await typeName(user, 1, 'Product');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await typeName(user, 2, 'product ');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(screen.getByText(MESSAGES['dataset.field.name.unique'])).toBeTruthy();
    expect(nameInput(1).getAttribute('aria-invalid')).toBe('false');
    expect(nameInput(2).getAttribute('aria-invalid')).toBe('true');
    expect(sent('/dataset/datasetfield')).toEqual([]);
  });

  it('sends the whole list, trimmed, and goes on to the rows offered', async () => {
    const user = renderWizard();
    await typeName(user, 1, ' Product ');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await typeName(user, 2, 'Price');
    await chooseType(user, 2, 'Number');
    await user.click(screen.getByRole('checkbox', { name: 'Field 2 is a key' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('checkbox', { name: 'Use Shop · Prices · Name' })).toBeTruthy();
    expect(sent('/dataset/datasetfield')).toEqual([
      {
        fields: [
          { datasetFieldId: null, name: 'Product', type: 'TEXT', dataSetKey: true },
          { datasetFieldId: null, name: 'Price', type: 'NUMBER', dataSetKey: false },
        ],
      },
    ]);
    // Step 2 shows what each row is.
    const row = screen.getByRole('checkbox', { name: 'Use Shop · Prices · Name' }).closest('tr')!;
    expect(within(row).getByText('Get table')).toBeTruthy();
  });

  it('shows a FILE field as two columns of the dataset: file name and file link', async () => {
    const user = renderWizard();
    await typeName(user, 1, 'Invoice');
    await chooseType(user, 1, 'File');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await typeName(user, 2, 'Total');

    const columns = within(screen.getByRole('list', { name: 'Columns of the dataset' })).getAllByRole(
      'listitem',
    );
    expect(columns.map((column) => column.textContent)).toEqual([
      'Invoice (file name)',
      'Invoice (file link)',
      'Total',
    ]);
  });

  it('removes a new row at once; a saved field used by a query stays, with the server’s text', async () => {
    draftFields = [
      {
        id: SAVED_FIELD_ID,
        datasetFieldId: SAVED_FIELD_ID,
        name: 'Product',
        type: 'TEXT',
        dataSetKey: true,
        sequence: 0,
      },
    ];
    const user = renderWizard();
    await screen.findByRole('textbox', { name: 'Name of field 1' });
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    expect(screen.getAllByTestId('dataset-field-row')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove field 2' }));
    expect(screen.getAllByTestId('dataset-field-row')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Remove field 1' }));
    await waitFor(() =>
      expect(screen.getByTestId('toast').textContent).toContain(MESSAGES['dataset.field.remove.query']),
    );
    expect(screen.getAllByTestId('dataset-field-row')).toHaveLength(1);
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe(
      `/api/dataset/removedatasetfield/?datasetId=${DATASET_ID}&datasetFieldId=${SAVED_FIELD_ID}&datasetFieldName=Product`,
    );
  });
});

const lastToast = () => screen.getAllByTestId('toast').at(-1)?.textContent ?? '';

/** Step 1 with these fields, then Next: step 2's rows show. */
async function toRows(user: ReturnType<typeof userEvent.setup>, names: readonly string[]) {
  for (const [index, name] of names.entries()) {
    if (index > 0) await user.click(screen.getByRole('button', { name: 'Add field' }));
    await typeName(user, index + 1, name);
  }
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('checkbox', { name: 'Use every row' });
}

describe('dataset wizard, step 2: labels and table columns', () => {
  it('names an action without a label of its own as the builder does, with its step', async () => {
    offered = [offeredRow, unlabeledRow];
    const user = renderWizard();
    await toRows(user, ['Product']);
    const row = screen.getByRole('checkbox', { name: 'Use Shop · Get text (70)' }).closest('tr')!;
    expect(within(row).getByText('Get text (70)')).toBeTruthy();
    expect(screen.queryByText(/GET_TEXT/u)).toBeNull();
  });

  it('Next with nothing chosen stays and says why', async () => {
    const user = renderWizard();
    await toRows(user, ['Product']);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastToast()).toContain(MESSAGES['dataset.next.step.error']));
    expect(sent('/dataset/labeltablecolumnlist')).toEqual([]);
    expect(screen.getByRole('checkbox', { name: 'Use every row' })).toBeTruthy();
  });

  it('Edit shows the saved selection ticked', async () => {
    const user = renderWizard({ isEdit: true });
    expect(await screen.findByDisplayValue('Product')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const box = await screen.findByRole<HTMLInputElement>('checkbox', {
      name: 'Use Shop · Prices · Name',
    });
    expect(box.checked).toBe(true);
  });
});

describe('dataset wizard, step 3: mapping', () => {
  it('pre-ticks the field named as the value; the user can still untick it', async () => {
    const user = renderWizard();
    await toRows(user, ['name', 'Price']);
    await user.click(screen.getByRole('checkbox', { name: 'Use Shop · Prices · Name' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const byName = await screen.findByRole<HTMLInputElement>('checkbox', {
      name: 'Shop · Prices · Name fills name',
    });
    expect(byName.checked).toBe(true);
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Shop · Prices · Name fills Price' }).checked,
    ).toBe(false);
    await user.click(byName);
    expect(byName.checked).toBe(false);
  });

  it('Save with no box ticked says so and sends nothing', async () => {
    const user = renderWizard();
    await toRows(user, ['Product']);
    await user.click(screen.getByRole('checkbox', { name: 'Use Shop · Prices · Name' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: 'Shop · Prices · Name fills Product' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastToast()).toContain(MESSAGES['dataset.map.none']));
    expect(sent(`/dataset/save?datasetId=${DATASET_ID}`)).toEqual([]);
    expect(screen.queryByText('Dashboard')).toBeNull();
  });

  it('says it is saving while a long save runs; a dataset in use is told in a sentence, the wizard kept', async () => {
    let answerSave: (response: Response) => void = () => undefined;
    const answerOthers = fetchMock.getMockImplementation();
    if (!answerOthers) throw new Error('beforeEach answers the other calls');
    fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) =>
      urlOf(input) === `/api/dataset/save?datasetId=${DATASET_ID}`
        ? new Promise<Response>((resolve) => {
            answerSave = resolve;
          })
        : answerOthers(input, init),
    );
    const user = renderWizard();
    await toRows(user, ['Product']);
    await user.click(screen.getByRole('checkbox', { name: 'Use Shop · Prices · Name' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Shop · Prices · Name fills Product' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toContain('rewrites its table');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);

    answerSave(json({ message: MESSAGES['dataset.save.in.use'], code: 'CONFLICT' }, 409));
    await waitFor(() => expect(lastToast()).toContain(MESSAGES['dataset.save.in.use']));
    expect(screen.queryByText(/rewrites its table/)).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(false);
  });
});
