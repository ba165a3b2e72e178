import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { DEFAULT_DATE_MASK, DateMaskFields, type DateMaskValue } from './date-mask-fields';
import { fakeServer, renderDialog } from './test-support';

function Harness() {
  const [mask, setMask] = useState<DateMaskValue>(DEFAULT_DATE_MASK);
  return (
    <>
      <DateMaskFields value={mask} onChange={setMask} element={{ selectorValue: '#when' }} showErrors />
      <output data-testid="mask">{JSON.stringify(mask)}</output>
    </>
  );
}

describe('DateMaskFields', () => {
  it('offers the spec masks and a custom one, with Etc/GMT0 by default, and previews the element', async () => {
    const requests = fakeServer(({ path }) =>
      path.startsWith('/api/extractor/dateTime/timezones')
        ? { status: 200, body: ['Etc/GMT0', 'UTC', 'Europe/Paris'] }
        : { status: 200, body: { text: '03/04/2026', value: '2026-03-04T00:00:00.000Z' } },
    );
    const { user } = renderDialog(<Harness />);
    expect(screen.getByLabelText(/^Time zone/)).toHaveProperty('value', 'Etc/GMT0');
    await screen.findByText('The page shows “03/04/2026”, read as 2026-03-04T00:00:00.000Z');
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      gmt: 'Etc/GMT0',
      mask: 'MM/dd/yyyy',
      selectorValue: '#when',
    });

    await user.click(screen.getByLabelText(/^Date mask/));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'MM/dd/yyyy',
      'dd/MM/yyyy',
      'hh:mm:ss',
      'MM/dd/yyyy hh:mm:ss',
      'Custom',
    ]);
    await user.click(options[4] as HTMLElement);
    expect(screen.getByText('Required')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Custom mask/), 'yyyy-MM-dd');
    expect(screen.getByTestId('mask').textContent).toBe(
      JSON.stringify({ mask: 'yyyy-MM-dd', gmt: 'Etc/GMT0' }),
    );
  });

  it("says 'Error to get Timezones' when the list cannot be loaded", async () => {
    fakeServer(({ path }) =>
      path.startsWith('/api/extractor/dateTime/timezones')
        ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
        : { status: 200, body: { text: 'x', value: 'y' } },
    );
    renderDialog(<Harness />);
    await screen.findByText('Error to get Timezones');
  });
});
