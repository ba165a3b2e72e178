import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import {
  ENGINE_MESSAGES,
  MESSAGES,
  type AddActionInput,
  type ElementTarget,
  type EngineSection,
  type FserviceDto,
  type Investor,
} from '@pagewright/shared';
import { ActionDialog, type ActionDialogProps } from './action-dialog';
import { draftAction, renderDialog } from './test-support';

const TARGET: ElementTarget = {
  selectorType: 'CSS',
  selectorValue: '#email',
  framePath: [],
  fallbackLocators: [],
};
const DRAFT = [draftAction(10, 'NAVIGATE'), draftAction(20, 'CLICK')];
const INVESTORS: Investor[] = [
  { portfolioid: 'P-1001', name: 'Alice Martin', confirmationNumber: 'C-77' },
  { portfolioid: 'P-1002', name: 'Bob Stone', confirmationNumber: null },
  { portfolioid: 'P-2040', name: 'Carla Diaz', confirmationNumber: 'C-91' },
];
const SECTIONS: EngineSection[] = [
  {
    key: 'contact',
    name: 'Contact',
    fields: [
      { key: 'email', label: 'Email', value: 'alice@example.com', type: 'TEXT' },
      { key: 'phone', label: 'Phone', value: null, type: 'TEXT' },
    ],
  },
  {
    key: 'bank',
    name: 'Bank account',
    fields: [{ key: 'iban', label: 'IBAN', value: 'FR76 3000 6000 0112', type: 'TEXT' }],
  },
];
const FIELDS: FserviceDto = { investor: INVESTORS[0], sections: SECTIONS };

function renderAction(props: Partial<ActionDialogProps> & Pick<ActionDialogProps, 'actionType'>) {
  const onConfirm = vi.fn<(input: AddActionInput) => void | Promise<void>>();
  const view = renderDialog(
    <ActionDialog
      open
      mode="add"
      extractorType="INSERTOR"
      actions={DRAFT}
      target={null}
      onCancel={vi.fn()}
      onConfirm={onConfirm}
      {...props}
    />,
  );
  return { ...view, onConfirm };
}

describe('the F-engine sign-in asks', () => {
  it.each(['ASK_F_ENGINE_URL', 'ASK_F_ENGINE_USER'] as const)(
    '%s shows Answer now without an element and sends it as credentials',
    async (type) => {
      const { user, onConfirm } = renderAction({ actionType: type });
      expect(screen.queryByText('Pick the element on the page first.')).toBeNull();
      await user.type(screen.getByRole('textbox', { name: /^Question/ }), 'Engine?');
      const answer = type === 'ASK_F_ENGINE_URL' ? 'https://engine.example' : 'ops@example.com';
      await user.type(screen.getByRole('textbox', { name: 'Answer now' }), answer);
      await user.click(screen.getByRole('checkbox', { name: 'Save the answer for next time' }));
      await user.click(screen.getByRole('button', { name: 'Confirm' }));
      expect(onConfirm).toHaveBeenCalledWith({
        type,
        sequence: 30,
        options: {},
        textValue: 'Engine?',
        credentials: answer,
        saveOptionsFlag: true,
      });
    },
  );

  it('ASK_F_ENGINE_PASSWORD takes its answer in a password field', async () => {
    const { user, onConfirm } = renderAction({ actionType: 'ASK_F_ENGINE_PASSWORD' });
    const answer = screen.getByLabelText<HTMLInputElement>('Answer now');
    expect(answer.type).toBe('password');
    await user.type(screen.getByRole('textbox', { name: /^Question/ }), 'Engine password?');
    await user.type(answer, 's3cret');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'ASK_F_ENGINE_PASSWORD',
        credentials: 's3cret',
        saveOptionsFlag: false,
      }),
    );
  });

  it('refuses an engine address that is not http(s) and needs the question', async () => {
    const { user, onConfirm } = renderAction({ actionType: 'ASK_F_ENGINE_URL' });
    await user.type(screen.getByRole('textbox', { name: 'Answer now' }), 'engine.example');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(MESSAGES['error.invalid.url'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['error.required'])).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('the investor dialog', () => {
  it('filters the investors by name, portfolioid or confirmation number and sends the chosen one', async () => {
    const { user, onConfirm } = renderAction({
      actionType: 'ASK_F_ENGINE_INVESTOR',
      engineInvestors: INVESTORS,
    });
    expect(screen.getByRole('dialog', { name: 'Select investor' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Question/ })).toHaveProperty('value', 'Which investor?');
    const list = screen.getByRole('radiogroup', { name: 'Investors' });
    expect(within(list).getAllByRole('radio')).toHaveLength(3);
    expect(within(list).getByText('P-1001 · confirmation C-77')).toBeTruthy();

    const search = screen.getByRole('searchbox', { name: 'Search investors' });
    await user.type(search, 'c-91');
    expect(
      within(list)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('aria-label')),
    ).toEqual(['Carla Diaz (P-2040)']);
    await user.clear(search);
    await user.type(search, 'stone');
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    await user.clear(search);
    await user.type(search, 'P-10');
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByText('No investor matches the search.')).toBeTruthy();
    await user.clear(search);

    await user.click(screen.getByRole('radio', { name: 'Bob Stone (P-1002)' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'ASK_F_ENGINE_INVESTOR',
      sequence: 30,
      textValue: 'Which investor?',
      credentials: 'P-1002',
      saveOptionsFlag: false,
    });
  });

  it('needs an investor before Confirm sends anything', async () => {
    const { user, onConfirm } = renderAction({
      actionType: 'ASK_F_ENGINE_INVESTOR',
      engineInvestors: INVESTORS,
    });
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(MESSAGES['error.required'])).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it.each([
    ['before sign-in', null],
    ['with an empty list', []],
  ])('says to sign in, without Confirm, %s', (_case, investors) => {
    renderAction({ actionType: 'ASK_F_ENGINE_INVESTOR', engineInvestors: investors });
    expect(screen.getByText(ENGINE_MESSAGES.signInRequired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});

describe('the field selection dialog', () => {
  it('groups the fields by section, shows the investor’s values and sends "section.field"', async () => {
    const { user, onConfirm } = renderAction({
      actionType: 'TYPE_F_ENGINE_FIELD',
      target: TARGET,
      engineFields: FIELDS,
    });
    expect(screen.getByText('Values of Alice Martin (P-1001)')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: /^Investor field/ }));
    const listbox = screen.getByRole('listbox');
    const items = Array.from(listbox.children).map((item) => item.textContent);
    expect(items).toEqual([
      'Contact',
      'Emailalice@example.com',
      'PhoneNo value',
      'Bank account',
      'IBANFR76 3000 6000 0112',
    ]);
    await user.click(within(listbox).getByRole('option', { name: 'Bank account: IBAN' }));
    expect(screen.getByText('Types now: FR76 3000 6000 0112')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'IBAN field');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'TYPE_F_ENGINE_FIELD',
      sequence: 30,
      textValue: 'bank.iban',
      label: 'IBAN field',
      target: TARGET,
    });
  });

  it('preselects the stored field when editing', async () => {
    const action = {
      ...draftAction(20, 'TYPE_F_ENGINE_FIELD'),
      textValue: 'contact.phone',
      selectorValue: '#phone',
    };
    const { user, onConfirm } = renderAction({
      actionType: 'TYPE_F_ENGINE_FIELD',
      mode: 'edit',
      action,
      actions: [draftAction(10, 'NAVIGATE'), action],
      engineFields: FIELDS,
    });
    expect(screen.getByRole('combobox', { name: /^Investor field/ }).textContent).toBe('Contact: Phone');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith({
      type: 'TYPE_F_ENGINE_FIELD',
      sequence: 20,
      textValue: 'contact.phone',
    });
  });

  it('says to choose an investor first when no sections are known', () => {
    renderAction({ actionType: 'TYPE_F_ENGINE_FIELD', target: TARGET, engineFields: null });
    expect(screen.getByText(/Choose an investor first \("Ask F-engine investor"\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });
});
