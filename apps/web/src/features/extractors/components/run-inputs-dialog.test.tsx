import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExtractorInput } from '@pagewright/shared';
import '../../../lib/i18n';
import { RunInputsDialog } from './run-inputs-dialog';

afterEach(cleanup);

const INPUTS: ExtractorInput[] = [
  { name: 'page', type: 'URL', defaultValue: 'https://shop.example/search?q=shoes' },
  { name: 'say', type: 'TEXT', defaultValue: 'hello' },
  { name: 'count', type: 'NUMBER', defaultValue: '3' },
];

function renderDialog() {
  const onSubmit = vi.fn();
  const user = userEvent.setup({ delay: null });
  render(<RunInputsDialog name="Shop search" inputs={INPUTS} onSubmit={onSubmit} onClose={vi.fn()} />);
  return { user, onSubmit };
}

describe('RunInputsDialog (Execute of an extractor with inputs)', () => {
  it('asks each input, prefilled with its default, and runs with the values', async () => {
    const { user, onSubmit } = renderDialog();
    expect(screen.getByRole('heading', { name: 'Run Shop search with' })).toBeTruthy();
    expect(screen.getByLabelText('page (URL)')).toHaveProperty(
      'value',
      'https://shop.example/search?q=shoes',
    );
    expect(screen.getByLabelText('count (Number)')).toHaveProperty('value', '3');
    const say = screen.getByLabelText('say (Text)');
    await user.clear(say);
    await user.type(say, 'blue shoes');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(onSubmit).toHaveBeenCalledWith({
      page: 'https://shop.example/search?q=shoes',
      say: 'blue shoes',
      count: '3',
    });
  });

  it('refuses a value of the wrong type, naming the input', async () => {
    const { user, onSubmit } = renderDialog();
    const count = screen.getByLabelText('count (Number)');
    await user.clear(count);
    await user.type(count, 'many');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(screen.getByText(/The input count must be a number/)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
