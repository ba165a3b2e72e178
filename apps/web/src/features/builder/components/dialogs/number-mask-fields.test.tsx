import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { DEFAULT_NUMBER_MASK, NumberMaskFields, type NumberMaskValue } from './number-mask-fields';
import { fakeServer, renderDialog } from './test-support';

function Harness({
  showErrors = false,
  withElement = false,
}: {
  showErrors?: boolean;
  withElement?: boolean;
}) {
  const [mask, setMask] = useState<NumberMaskValue>(DEFAULT_NUMBER_MASK);
  return (
    <NumberMaskFields
      value={mask}
      onChange={setMask}
      element={withElement ? { selectorValue: '#total' } : null}
      showErrors={showErrors}
    />
  );
}

describe('NumberMaskFields', () => {
  it('keeps one character per prefix and suffix, and only one of the two', async () => {
    const { user } = renderDialog(<Harness />);
    const prefix = screen.getByLabelText('Positive prefix');
    await user.type(prefix, '$€');
    expect(prefix).toHaveProperty('value', '$');
    expect(screen.getByLabelText('Positive suffix')).toHaveProperty('disabled', true);
    await user.clear(prefix);
    expect(screen.getByLabelText('Positive suffix')).toHaveProperty('disabled', false);
    // The negative sign is a prefix by default: its suffix waits until it is cleared.
    expect(screen.getByLabelText('Negative suffix')).toHaveProperty('disabled', true);
  });

  it('requires both separators', async () => {
    const { user } = renderDialog(<Harness showErrors />);
    await user.clear(screen.getByLabelText(/^Decimal separator/));
    expect(screen.getByText('Required')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Decimal separator/), ',');
    await user.clear(screen.getByLabelText(/^Group separator/));
    expect(screen.getByText('Required')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Group separator/), '.');
    expect(screen.queryByText('Required')).toBeNull();
  });

  it('previews the element read with the mask, after the user stops typing', async () => {
    const requests = fakeServer(({ body }) => {
      const { decimalSeparator } = body as NumberMaskValue;
      return decimalSeparator === ','
        ? { status: 200, body: { text: '1.234,50', value: 1234.5 } }
        : { status: 422, body: { message: 'Error to apply mask: not a number', code: 'UNPROCESSABLE' } };
    });
    const { user } = renderDialog(<Harness withElement />);
    await screen.findByText('Error to apply mask: not a number');
    const decimal = screen.getByLabelText(/^Decimal separator/);
    await user.clear(decimal);
    await user.type(decimal, ',');
    const group = screen.getByLabelText(/^Group separator/);
    await user.clear(group);
    await user.type(group, '.');
    await screen.findByText('The page shows “1.234,50”, read as 1234.5');
    const last = requests.at(-1);
    expect(last?.path).toBe('/api/extractor/number/mask?extractorType=EXTRACTOR');
    expect(last?.body).toMatchObject({ selectorValue: '#total', decimalSeparator: ',', groupSeparator: '.' });
    // Debounced: no call for the intermediate masks typed in between.
    await waitFor(() => expect(requests.length).toBeLessThanOrEqual(3));
  });
});
