import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ASK_CANCELED,
  DIALOG_CONFIRM_COOLDOWN_MS,
  MESSAGES,
  RECAPTCHA_DONE,
  type PendingAskAction,
} from '@pagewright/shared';
import { AppProviders } from '../../../app/providers';
// The app frame's labels, as every screen inside it has them (app-layout.tsx loads them).
import '../../../lib/i18n';
import { AskDialog, type AskAnswer } from './ask-dialog';
import { installFakeClock } from '../../../test-support/clock';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function askOf(overrides: Partial<PendingAskAction> = {}): PendingAskAction {
  return {
    id: '6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b',
    type: 'ASK_CODE',
    label: 'Security code',
    options: { text: 'Type the code we sent you', askMultiStepDto: null },
    saveOptionsFlag: false,
    isActionSaved: true,
    elementScreenshot: null,
    normalizedElements: null,
    managementDTO: null,
    extractorId: '7b2f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b',
    runId: '8c3f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b',
    updated: false,
    ...overrides,
  };
}

function renderDialog(ask: PendingAskAction) {
  const onAnswer = vi.fn(async (_answer: AskAnswer) => undefined);
  const onPickArea = vi.fn(async () => undefined);
  render(
    <AppProviders>
      <AskDialog ask={ask} onAnswer={onAnswer} onPickArea={onPickArea} isRefreshing={false} />
    </AppProviders>,
  );
  return { user: userEvent.setup({ delay: null }), onAnswer, onPickArea };
}

const confirmButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' });

describe('the ask dialog', () => {
  it('shows the question, sends the typed value, and keeps Confirm disabled for 500 ms after each click', async () => {
    installFakeClock();
    const { user, onAnswer } = renderDialog(askOf());
    expect(screen.getByRole('dialog', { name: 'Security code' })).toBeTruthy();
    expect(screen.getByText('Type the code we sent you')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Answer' }), '424242');
    await user.click(confirmButton());
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({ textValue: '424242', saveOptionsFlag: false });
    expect(confirmButton().disabled).toBe(true);
    // A second click (or Enter) inside the cooldown sends nothing.
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), '{Enter}');
    expect(onAnswer).toHaveBeenCalledTimes(1);

    act(() => {
      vi.advanceTimersByTime(DIALOG_CONFIRM_COOLDOWN_MS - 1);
    });
    expect(confirmButton().disabled).toBe(true);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(confirmButton().disabled).toBe(false);
    // Enter submits once Confirm is enabled again.
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), '{Enter}');
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });

  it('needs a value before Confirm sends anything', async () => {
    const { user, onAnswer } = renderDialog(askOf());
    await user.click(confirmButton());
    expect(screen.getByText(MESSAGES['error.required'])).toBeTruthy();
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('sends CANCELED on Cancel', async () => {
    const { user, onAnswer } = renderDialog(askOf());
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'typed but canceled');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onAnswer).toHaveBeenCalledWith({ textValue: ASK_CANCELED, saveOptionsFlag: false });
  });

  it('refuses "save for next time" while the action is not saved yet', async () => {
    const { user, onAnswer } = renderDialog(askOf({ isActionSaved: false }));
    const save = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Save for next time' });
    await user.click(save);
    expect(screen.getByText(MESSAGES['extractor.ask.save.unsaved'])).toBeTruthy();
    expect(save.checked).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'abc{Enter}');
    expect(onAnswer).toHaveBeenCalledWith({ textValue: 'abc', saveOptionsFlag: false });
  });

  it('saves for next time on a saved action, and hides a password answer until asked', async () => {
    const { user, onAnswer } = renderDialog(askOf({ type: 'ASK_PASSWORD', label: 'Password' }));
    const input = screen.getByLabelText<HTMLInputElement>('Answer');
    expect(input.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show characters' }));
    expect(input.type).toBe('text');
    await user.click(screen.getByRole('checkbox', { name: 'Save for next time' }));
    expect(screen.queryByText(MESSAGES['extractor.ask.save.unsaved'])).toBeNull();
    await user.type(input, 's3cret{Enter}');
    expect(onAnswer).toHaveBeenCalledWith({ textValue: 's3cret', saveOptionsFlag: true });
  });

  it('shows the picture, which enlarges on a click', async () => {
    // A 1×1 PNG.
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const { user } = renderDialog(askOf({ elementScreenshot: png }));
    expect(screen.getAllByRole('img', { name: 'Element' })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Enlarge picture: Element' }));
    // The full-size picture opens above the ask, with its own Close button.
    // (The ask behind it leaves the accessibility tree once the picture's modal has mounted.)
    const close = await screen.findByRole('button', { name: 'Close' });
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Element' }).closest('[role="dialog"]')).toBe(
        close.closest('[role="dialog"]'),
      ),
    );
    await user.click(close);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy());
  });

  it('reCAPTCHA: no text to type; Confirm says the widget is solved', async () => {
    const { user, onAnswer } = renderDialog(
      askOf({ type: 'ASK_RECAPTCHA', label: null, normalizedElements: [] }),
    );
    expect(screen.getByRole('dialog', { name: 'Solve the reCAPTCHA' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Answer' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Save for next time' })).toBeNull();
    await user.click(confirmButton());
    expect(onAnswer).toHaveBeenCalledWith({ textValue: RECAPTCHA_DONE, saveOptionsFlag: false });
  });
  describe('F-engine asks', () => {
    const investors = [
      { portfolioid: 'P-1001', name: 'Alice Martin', confirmationNumber: 'C-77' },
      { portfolioid: 'P-1002', name: 'Bob Stone', confirmationNumber: null },
    ];

    it('investor: searches the engine’s investors and answers with the chosen portfolioid', async () => {
      const { user, onAnswer } = renderDialog(
        askOf({
          type: 'ASK_F_ENGINE_INVESTOR',
          label: null,
          options: { text: 'Which investor?', askMultiStepDto: null },
          managementDTO: { investors },
        }),
      );
      expect(screen.queryByRole('textbox', { name: 'Answer' })).toBeNull();
      await user.type(screen.getByRole('searchbox', { name: 'Search investors' }), 'c-77');
      expect(screen.getAllByRole('radio')).toHaveLength(1);
      await user.click(screen.getByRole('radio', { name: 'Alice Martin (P-1001)' }));
      await user.click(screen.getByRole('checkbox', { name: 'Save for next time' }));
      await user.click(confirmButton());
      expect(onAnswer).toHaveBeenCalledWith({ textValue: 'P-1001', saveOptionsFlag: true });
    });

    it.each([
      ['without managementDTO', null],
      ['with no investors', { investors: [] }],
    ])('investor %s: says to sign in and offers only Cancel', async (_case, managementDTO) => {
      const { user, onAnswer } = renderDialog(askOf({ type: 'ASK_F_ENGINE_INVESTOR', managementDTO }));
      expect(screen.getByText(MESSAGES['extractor.investor.sign.in'])).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
      expect(screen.queryByRole('checkbox', { name: 'Save for next time' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(onAnswer).toHaveBeenCalledWith({ textValue: ASK_CANCELED, saveOptionsFlag: false });
    });

    it('password: a hidden answer; URL and user: text answers', async () => {
      const { user, onAnswer } = renderDialog(
        askOf({ type: 'ASK_F_ENGINE_PASSWORD', label: 'Engine password' }),
      );
      const input = screen.getByLabelText<HTMLInputElement>('Answer');
      expect(input.type).toBe('password');
      await user.type(input, 's3cret{Enter}');
      expect(onAnswer).toHaveBeenCalledWith({ textValue: 's3cret', saveOptionsFlag: false });
      cleanup();
      renderDialog(askOf({ type: 'ASK_F_ENGINE_URL' }));
      expect(screen.getByRole('textbox', { name: 'Answer' })).toBeTruthy();
      cleanup();
      renderDialog(askOf({ type: 'ASK_F_ENGINE_USER' }));
      expect(screen.getByRole('textbox', { name: 'Answer' })).toBeTruthy();
    });
  });
});
