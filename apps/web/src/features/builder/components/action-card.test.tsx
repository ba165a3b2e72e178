import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { BuilderAction } from '@pagewright/shared';
import '../../../lib/i18n';
import { ActionCard } from './action-card';
import { draftAction } from './dialogs/test-support';

const CSS_PATH = '#dokuwiki__content > div > div:nth-of-type(2) > form > div > fieldset > button';

afterEach(cleanup);

function renderCard(action: BuilderAction) {
  return render(
    <ActionCard
      action={action}
      picture={null}
      isUnfinished={false}
      menuMode="full"
      onEdit={vi.fn()}
      onEditSequence={vi.fn()}
      onRemove={vi.fn()}
      onCancel={vi.fn()}
      onEnlarge={vi.fn()}
    />,
  );
}

describe('action card target', () => {
  it('shows the role and accessible name first, and the CSS path one click away', () => {
    renderCard(
      draftAction(40, 'CLICK', {
        selectorValue: CSS_PATH,
        fallbackLocators: [
          { kind: 'role', role: 'button', name: 'Log In' },
          { kind: 'text', value: 'Log In', tagName: 'button' },
          { kind: 'css', value: CSS_PATH },
        ],
      }),
    );
    const card = screen.getByTestId('action-card-40');
    expect(card.textContent).toContain('button "Log In"');
    expect(card.textContent).not.toContain(CSS_PATH);

    const toggle = screen.getByRole('button', { name: 'Show selector' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByText(CSS_PATH)).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Hide selector' }));
    expect(card.textContent).not.toContain(CSS_PATH);
  });

  it('falls back to the label, then the text, and shows the CSS path itself when nothing reads better', () => {
    const { unmount } = renderCard(
      draftAction(20, 'TYPE_TEXT', {
        selectorValue: 'html > body > form > input:nth-of-type(1)',
        fallbackLocators: [{ kind: 'label', value: 'Username' }],
      }),
    );
    expect(screen.getByTestId('action-card-20').textContent).toContain('labelled "Username"');
    unmount();

    const text = renderCard(
      draftAction(30, 'GET_TEXT', {
        selectorValue: '#welcome',
        fallbackLocators: [{ kind: 'text', value: 'Welcome, ada', tagName: 'h1' }],
      }),
    );
    expect(screen.getByTestId('action-card-30').textContent).toContain('h1 "Welcome, ada"');
    text.unmount();

    renderCard(
      draftAction(50, 'GET_TEXT', {
        selectorValue: '#balance',
        fallbackLocators: [
          { kind: 'id', value: 'balance' },
          { kind: 'css', value: '#balance' },
        ],
      }),
    );
    expect(screen.getByTestId('action-card-50').textContent).toContain('#balance');
    expect(screen.queryByRole('button', { name: 'Show selector' })).toBeNull();
  });
});
