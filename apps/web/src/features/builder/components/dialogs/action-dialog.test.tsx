import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { ActionType, AddActionInput, ElementTarget } from '@pagewright/shared';
import { ActionDialog, type ActionDialogProps } from './action-dialog';
import { needsActionDialog } from './needs-action-dialog';
import { draftAction, renderDialog } from './test-support';

const TARGET: ElementTarget = {
  selectorType: 'CSS',
  selectorValue: '#price',
  framePath: [],
  fallbackLocators: [],
};
const DRAFT = [draftAction(10, 'NAVIGATE'), draftAction(20, 'CLICK'), draftAction(35, 'GET_TEXT')];

function renderAdd(actionType: ActionType, extra: Partial<ActionDialogProps> = {}) {
  const onConfirm = vi.fn<(input: AddActionInput) => void | Promise<void>>();
  const onCancel = vi.fn();
  const view = renderDialog(
    <ActionDialog
      open
      mode="add"
      actionType={actionType}
      extractorType="EXTRACTOR"
      actions={DRAFT}
      target={null}
      onCancel={onCancel}
      onConfirm={onConfirm}
      {...extra}
    />,
  );
  return { ...view, onConfirm, onCancel };
}

describe('ActionDialog', () => {
  it('adds simple actions without a dialog', () => {
    expect(needsActionDialog('SCROLL_DOWN')).toBe(false);
    expect(needsActionDialog('GO_BACK')).toBe(false);
    expect(needsActionDialog('END')).toBe(false);
    expect(needsActionDialog('MOUSE_CLICK')).toBe(false);
    expect(needsActionDialog('NAVIGATE')).toBe(true);
    expect(needsActionDialog('WAIT')).toBe(true);
  });

  it('proposes the next ten above the highest sequence', () => {
    renderAdd('RAISE_ERROR');
    expect(screen.getByLabelText(/^Sequence/)).toHaveProperty('value', '40');
  });

  it.each([
    ['-10', 'negative'],
    ['10', 'at the first action'],
    ['5', 'below the first action'],
    ['20', 'already used'],
  ])('refuses sequence %s (%s) with Invalid Value', async (sequence) => {
    const { user, onConfirm } = renderAdd('RAISE_ERROR');
    await user.type(screen.getByLabelText(/^Error message/), 'Stop here');
    const field = screen.getByLabelText(/^Sequence/);
    await user.clear(field);
    await user.type(field, sequence);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Invalid Value')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('accepts a free sequence above the first and submits on Enter', async () => {
    const { user, onConfirm } = renderAdd('RAISE_ERROR');
    const field = screen.getByLabelText(/^Sequence/);
    await user.clear(field);
    await user.type(field, '15');
    await user.type(screen.getByLabelText(/^Error message/), 'Stop here{Enter}');
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'RAISE_ERROR',
      sequence: 15,
      options: {},
      textValue: 'Stop here',
    });
  });

  it('locks the sequence of the very first action, which must be Navigate', async () => {
    renderAdd('NAVIGATE', { actions: [] });
    expect(screen.getByLabelText(/^Sequence/)).toHaveProperty('disabled', true);
    expect(screen.getByLabelText(/^Sequence/)).toHaveProperty('value', '10');
  });

  it('refuses any other first action', () => {
    renderAdd('CLICK', { actions: [], target: TARGET });
    expect(screen.getByText('The first action must be Navigate.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveProperty('disabled', true);
  });

  it('needs a valid URL for Navigate', async () => {
    const { user, onConfirm } = renderAdd('NAVIGATE', { actions: [] });
    const url = screen.getByLabelText(/^URL/);
    expect(document.activeElement).toBe(url);
    await user.type(url, 'example');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Invalid URL')).toBeTruthy();
    await user.clear(url);
    await user.type(url, 'https://example.com/{Enter}');
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'NAVIGATE',
      sequence: 10,
      options: {},
      textValue: 'https://example.com/',
    });
  });

  it('shows Required under an empty required field', async () => {
    const { user, onConfirm } = renderAdd('TYPE_TEXT', { target: TARGET });
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Required')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('keeps Wait seconds to digits clamped to 0–60, empty being 0', async () => {
    const { user, onConfirm } = renderAdd('WAIT');
    const seconds = screen.getByLabelText(/^Seconds/);
    await user.type(seconds, 'a7');
    expect(seconds).toHaveProperty('value', '7');
    await user.type(seconds, '5');
    expect(seconds).toHaveProperty('value', '60');
    await user.clear(seconds);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'WAIT',
      sequence: 40,
      options: { number: 0 },
      textValue: '0',
    });
  });

  it('takes only digits, at most 10, as the next action sequence', async () => {
    const { user, onConfirm } = renderAdd('IF_EXISTS', { target: TARGET });
    const next = screen.getByLabelText(/^Next action sequence/);
    await user.type(next, '12ab3456789012');
    expect(next).toHaveProperty('value', '1234567890');
    await user.clear(next);
    await user.type(next, '30');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Invalid Value')).toBeTruthy();
    await user.clear(next);
    await user.type(next, '60{Enter}');
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'IF_EXISTS',
      sequence: 40,
      target: TARGET,
      options: { sequenceDestination: 60 },
    });
  });

  it('stays open with its values when the builder call fails', async () => {
    const { user, onConfirm } = renderAdd('RAISE_ERROR');
    onConfirm.mockRejectedValue(new Error('refused'));
    await user.type(screen.getByLabelText(/^Error message/), 'Stop{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getByLabelText(/^Error message/)).toHaveProperty('value', 'Stop');
  });

  it('edits an action at its own sequence, keeping a stored password', async () => {
    const action = draftAction(20, 'TYPE_PASSWORD', { hasCredentials: true, selectorValue: '#pw' });
    const onConfirm = vi.fn();
    const { user } = renderDialog(
      <ActionDialog
        open
        mode="edit"
        actionType="TYPE_PASSWORD"
        extractorType="EXTRACTOR"
        actions={[draftAction(10, 'NAVIGATE'), action]}
        target={null}
        action={action}
        onCancel={vi.fn()}
        onConfirm={onConfirm}
      />,
    );
    expect(screen.getByLabelText(/^Sequence/)).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText(/^Label/), 'Secret{Enter}');
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'TYPE_PASSWORD',
      sequence: 20,
      label: 'Secret',
      options: {},
    });
  });
});
