import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { PageElementArea } from '@pagewright/shared';
import { GetTablePanel, type GetTablePanelProps } from './get-table-panel';
import { renderDialog } from './test-support';

function area(
  id: number,
  parentId: number | null,
  selector: string,
  tagName: string,
  extra: Partial<PageElementArea> = {},
): PageElementArea {
  const textContent = extra.textContent ?? '';
  return {
    id,
    parentId,
    x: 0,
    y: 0,
    width: 10,
    height: 10,
    selector,
    xpath: `/${tagName}[${id}]`,
    textContent,
    hasText: textContent !== '',
    containsHref: false,
    tagName,
    ...extra,
  };
}

const ROW1 = '#orders > tbody > tr:nth-of-type(1)';
const ROW2 = '#orders > tbody > tr:nth-of-type(2)';
const AREAS: PageElementArea[] = [
  area(0, null, 'html', 'html'),
  area(1, 0, 'html > body', 'body'),
  area(2, 1, '#orders', 'table', { containsHref: true }),
  area(3, 2, '#orders > tbody', 'tbody', { containsHref: true }),
  area(4, 3, ROW1, 'tr', { containsHref: true }),
  area(5, 4, `${ROW1} > td:nth-of-type(1)`, 'td', { textContent: 'Order 1' }),
  area(6, 4, `${ROW1} > td:nth-of-type(2)`, 'td', { containsHref: true }),
  area(7, 6, `${ROW1} > td:nth-of-type(2) > a`, 'a', { textContent: 'invoice-1.pdf', containsHref: true }),
  area(8, 3, ROW2, 'tr', { containsHref: true }),
  area(9, 8, `${ROW2} > td:nth-of-type(1)`, 'td', { textContent: 'Order 2' }),
  area(10, 8, `${ROW2} > td:nth-of-type(2)`, 'td', { containsHref: true }),
  area(11, 10, `${ROW2} > td:nth-of-type(2) > a`, 'a', { textContent: 'invoice-2.pdf', containsHref: true }),
  area(12, 1, 'html > body > p', 'p', { textContent: 'Outside' }),
  area(13, 1, '#next', 'button', { textContent: 'Next' }),
];

function setup() {
  const props: GetTablePanelProps = {
    tableName: 'Orders',
    areas: AREAS,
    pick: { serial: 0, selector: null },
    onHighlight: vi.fn(),
    onCancel: vi.fn(),
    onConfirm: vi.fn(),
  };
  const view = renderDialog(<GetTablePanel {...props} />);
  // Each click on the page view is a new pick, even of the element picked before.
  let serial = 0;
  const pick = (id: number) => {
    serial += 1;
    view.rerender(<GetTablePanel {...props} pick={{ serial, selector: AREAS[id]!.selector }} />);
  };
  return { ...view, props, pick };
}

const selection = () => screen.getByTestId('table-selection').textContent;
const selectedPath = () => screen.getByTestId('table-selection').getAttribute('data-selector');

describe('GetTablePanel', () => {
  it('picks the table, a row and typed columns, then finishes with relative selectors', async () => {
    const { user, props, pick } = setup();
    pick(5);
    expect(selection()).toBe('Selected: td "Order 1"');
    expect(selectedPath()).toBe(`${ROW1} > td:nth-of-type(1)`);
    await user.click(screen.getByRole('button', { name: 'Up' }));
    await user.click(screen.getByRole('button', { name: 'Up' }));
    await user.click(screen.getByRole('button', { name: 'Up' }));
    expect(selection()).toBe('Selected: table "Order 1 invoice-1.pdf Order 2 invoice-2…"');
    expect(selectedPath()).toBe('#orders');
    expect(props.onHighlight).toHaveBeenLastCalledWith('2');
    await user.click(screen.getByRole('button', { name: 'Down' }));
    expect(selectedPath()).toBe('#orders > tbody');
    await user.click(screen.getByRole('button', { name: 'Up' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    // ROW: the table pick belongs to the previous stage.
    expect(selection()).toBe('Nothing selected yet.');
    pick(12);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Pick an element inside the table.')).toBeTruthy();
    // The cell clicked for the row is climbed from to its row: the table has two like it.
    pick(5);
    await user.click(screen.getByRole('button', { name: 'Up' }));
    expect(selectedPath()).toBe(ROW1);
    expect(screen.getByTestId('table-row-count').textContent).toBe('2 rows like this one on this page');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('table-rows').textContent).toContain('2 rows on this page');

    // COLUMN: the same cell, clicked again, is a new pick and becomes the first column.
    expect(selection()).toBe('Nothing selected yet.');
    pick(5);
    expect(selectedPath()).toBe(`${ROW1} > td:nth-of-type(1)`);
    await user.click(screen.getByRole('button', { name: 'Add column' }));
    expect(screen.getByText('Required')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Column label/), 'Order{Enter}');
    pick(6);
    await user.click(screen.getByLabelText(/^Column type/));
    await user.click(within(screen.getByRole('listbox')).getByText('File'));
    await user.type(screen.getByLabelText(/^Column label/), 'Invoice{Enter}');

    const preview = screen.getByRole('table', { name: 'Preview of the first rows' });
    const rows = within(preview)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['OrderInvoice', 'Order 1invoice-1.pdf', 'Order 2invoice-2.pdf']);

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(props.onConfirm).toHaveBeenCalledWith({
      name: 'Orders',
      tableSelector: '#orders',
      rowSelector: 'tbody > tr',
      columns: [
        { label: 'Order', selector: 'td:nth-of-type(1)', type: 'TEXT' },
        { label: 'Invoice', selector: 'td:nth-of-type(2)', type: 'FILE' },
      ],
      rowsSeen: 2,
      maxPages: 1,
    });
    // The columns name the first row's cells, not CSS paths.
    expect(screen.getByRole('list', { name: 'Columns' }).textContent).toContain('First row: "Order 1"');
  });

  it('refuses a File column on an element without a link, and removes columns', async () => {
    const { user, props, pick } = setup();
    pick(2);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    pick(8);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    pick(9);
    await user.click(screen.getByLabelText(/^Column type/));
    await user.click(within(screen.getByRole('listbox')).getByText('File'));
    await user.type(screen.getByLabelText(/^Column label/), 'Invoice{Enter}');
    expect(
      screen.getByText('A File column needs a link: pick an anchor or an element that contains one.'),
    ).toBeTruthy();
    expect(screen.getByText('No columns yet.')).toBeTruthy();

    pick(11);
    await user.type(screen.getByLabelText(/^Column label/), '{Enter}');
    expect(screen.getByRole('list', { name: 'Columns' }).textContent).toContain('Invoice (File)');
    await user.click(screen.getByRole('button', { name: 'Remove column Invoice' }));
    expect(screen.getByText('No columns yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.getByText('Add at least one column.')).toBeTruthy();
    expect(props.onConfirm).not.toHaveBeenCalled();
  });

  it('follows a next-page button outside the row, up to the pages given', async () => {
    const { user, props, pick } = setup();
    pick(2);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    pick(4);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    pick(5);
    await user.type(screen.getByLabelText(/^Column label/), 'Order{Enter}');
    expect(screen.getByTestId('next-page-button').textContent).toBe('Only this page is read.');

    // A cell of the row is a column, not a page button.
    await user.click(screen.getByRole('button', { name: 'Use selection as next-page button' }));
    expect(screen.getByText('The next-page button cannot be part of the row.')).toBeTruthy();
    pick(13);
    await user.click(screen.getByRole('button', { name: 'Use selection as next-page button' }));
    expect(screen.getByTestId('next-page-button').textContent).toBe('After each page, clicks button "Next"');

    const pages = screen.getByLabelText(/^Most pages/);
    expect((pages as HTMLInputElement).value).toBe('10');
    await user.clear(pages);
    expect(screen.getByText('Required')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(props.onConfirm).not.toHaveBeenCalled();
    await user.type(pages, '5000');
    expect((pages as HTMLInputElement).value).toBe('5000');
    expect(screen.getByText('Invalid Value')).toBeTruthy();
    await user.clear(pages);
    await user.type(pages, '3');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(props.onConfirm).toHaveBeenCalledWith({
      name: 'Orders',
      tableSelector: '#orders',
      rowSelector: 'tbody > tr',
      columns: [{ label: 'Order', selector: 'td:nth-of-type(1)', type: 'TEXT' }],
      rowsSeen: 2,
      nextPageSelector: '#next',
      maxPages: 3,
    });
  });
});
