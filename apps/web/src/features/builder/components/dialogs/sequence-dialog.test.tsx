import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { SequenceDialog } from './sequence-dialog';
import { draftAction, renderDialog } from './test-support';

const DRAFT = [draftAction(10, 'NAVIGATE'), draftAction(20, 'CLICK'), draftAction(30, 'GET_TEXT')];

describe('SequenceDialog', () => {
  it('cannot re-sequence the first action', () => {
    renderDialog(
      <SequenceDialog open action={DRAFT[0]!} actions={DRAFT} onCancel={vi.fn()} onConfirm={vi.fn()} />,
    );
    expect(screen.getByText('The first action cannot be re-sequenced.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('moves an action to a free sequence above the first one', async () => {
    const onConfirm = vi.fn();
    const { user } = renderDialog(
      <SequenceDialog open action={DRAFT[2]!} actions={DRAFT} onCancel={vi.fn()} onConfirm={onConfirm} />,
    );
    const field = screen.getByLabelText(/^New sequence/);
    expect(document.activeElement).toBe(field);
    for (const refused of ['-5', '10', '20']) {
      await user.clear(field);
      await user.type(field, `${refused}{Enter}`);
      expect(screen.getByText('Invalid Value')).toBeTruthy();
    }
    await user.clear(field);
    await user.type(field, '15{Enter}');
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith(15);
  });
});
