import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { INPUT_MESSAGES, type ActionType, type AddActionInput, type ElementTarget } from '@pagewright/shared';
import { ActionDialog } from './action-dialog';
import { draftAction, renderDialog } from './test-support';

const TARGET: ElementTarget = {
  selectorType: 'CSS',
  selectorValue: '#echo-input',
  framePath: [],
  fallbackLocators: [],
};

function renderAdd(actionType: ActionType) {
  const onConfirm = vi.fn<(input: AddActionInput) => void | Promise<void>>();
  const view = renderDialog(
    <ActionDialog
      open
      mode="add"
      actionType={actionType}
      extractorType="EXTRACTOR"
      actions={[draftAction(10, 'NAVIGATE')]}
      target={TARGET}
      onCancel={vi.fn()}
      onConfirm={onConfirm}
    />,
  );
  return { ...view, onConfirm };
}

describe('"Make this an input" in the action dialog (issue 26)', () => {
  it('sends a typed text as an input with its name and type; the text is its default', async () => {
    const { user, onConfirm } = renderAdd('TYPE_TEXT');
    await user.type(screen.getByLabelText(/^Text/), 'blue shoes');
    expect(screen.queryByLabelText(/^Input name/)).toBeNull();
    await user.click(screen.getByLabelText('Make this an input'));
    await user.type(screen.getByLabelText(/^Input name/), 'query');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'TYPE_TEXT',
        textValue: 'blue shoes',
        makeInput: { name: 'query', type: 'TEXT' },
      }),
    );
  });

  it('refuses a name that is not an identifier, and a default of the wrong type', async () => {
    const { user, onConfirm } = renderAdd('TYPE_TEXT');
    await user.type(screen.getByLabelText(/^Text/), 'twelve');
    await user.click(screen.getByLabelText('Make this an input'));
    await user.type(screen.getByLabelText(/^Input name/), '2 words');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(INPUT_MESSAGES.nameFormat)).toBeTruthy();

    const name = screen.getByLabelText(/^Input name/);
    await user.clear(name);
    await user.type(name, 'count');
    await user.click(screen.getByLabelText(/^Input type/));
    await user.click(screen.getByRole('option', { name: 'Number' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(/The input count must be a number/)).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('offers a NAVIGATE URL as an input of type URL, and leaves other actions without it', async () => {
    const { user, onConfirm, unmount } = renderAdd('NAVIGATE');
    await user.type(screen.getByLabelText(/^URL/), 'https://shop.example/search?q=shoes');
    await user.click(screen.getByLabelText('Make this an input'));
    await user.type(screen.getByLabelText(/^Input name/), 'page');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({
        textValue: 'https://shop.example/search?q=shoes',
        makeInput: { name: 'page', type: 'URL' },
      }),
    );
    unmount();
    renderAdd('CLICK');
    expect(screen.queryByLabelText('Make this an input')).toBeNull();
  });
});
