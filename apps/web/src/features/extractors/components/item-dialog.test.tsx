import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@pagewright/shared';
import { AppProviders } from '../../../app/providers';
// The app frame's labels, as every screen inside it has them (app-layout.tsx loads them).
import '../../../lib/i18n';
import { ApiError } from '../../../lib/api-client';
import type { ItemFields } from '../item-rules';
import { LIST_KINDS, type ListKind } from '../list-kinds';
import { ItemDialog } from './item-dialog';

afterEach(cleanup);

function renderDialog(
  kind: ListKind,
  mode: 'create' | 'rename',
  onSubmit: (fields: ItemFields) => Promise<void> = vi.fn(async () => undefined),
  initial?: { name: string; description: string },
) {
  render(
    <AppProviders>
      <ItemDialog kind={kind} mode={mode} initial={initial} onSubmit={onSubmit} onClose={() => undefined} />
    </AppProviders>,
  );
  return { user: userEvent.setup({ delay: null }), onSubmit };
}

const field = (label: string) => screen.getByRole('textbox', { name: label });

async function fill(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  await user.clear(field(label));
  await user.click(field(label));
  if (value) await user.paste(value);
}

describe('add and rename dialog rules', () => {
  it('requires a name and a description after trimming, with the kind’s texts', async () => {
    const { user, onSubmit } = renderDialog(LIST_KINDS.INSERTOR, 'create');
    expect(screen.getByRole('dialog', { name: 'New insertor' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(MESSAGES['insertor.list.error.name'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['insertor.list.error.description'])).toBeTruthy();

    await fill(user, 'Name', '   ');
    await fill(user, 'Description', '  \n ');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(MESSAGES['insertor.list.error.name'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['insertor.list.error.description'])).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    // Enter in the name field submits; values go out trimmed.
    await fill(user, 'Name', '  Daily prices ');
    await fill(user, 'Description', ' Reads the prices ');
    await user.type(field('Name'), '{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Daily prices',
      description: 'Reads the prices',
      viewerEmail: '',
    });
  });

  it('refuses a name over 128 and a description over 1024 characters', async () => {
    const { user, onSubmit } = renderDialog(LIST_KINDS.EXTRACTOR, 'create');
    await fill(user, 'Name', 'n'.repeat(129));
    await fill(user, 'Description', 'd'.repeat(1025));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Name must be at most 128 characters')).toBeTruthy();
    expect(screen.getByText('Description must be at most 1024 characters')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    await fill(user, 'Name', 'n'.repeat(128));
    await fill(user, 'Description', 'd'.repeat(1024));
    expect(screen.queryByText('Name must be at most 128 characters')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'n'.repeat(128),
      description: 'd'.repeat(1024),
      viewerEmail: '',
    });
  });

  it('asks a new navigator for a viewer e-mail: required, the spec pattern, at most 255 characters', async () => {
    const { user, onSubmit } = renderDialog(LIST_KINDS.NAVIGATOR, 'create');
    await fill(user, 'Name', 'Share');
    await fill(user, 'Description', 'Shows the run');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(MESSAGES['navigator.list.error.viewer.email'])).toBeTruthy();

    await fill(user, 'Viewer e-mail', 'viewer@example');
    expect(screen.getByText(MESSAGES['signup.email.invalid'])).toBeTruthy();
    await fill(user, 'Viewer e-mail', `${'v'.repeat(244)}@example.com`);
    expect(screen.getByText('Viewer Email must be at most 255 characters')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    await fill(user, 'Viewer e-mail', 'viewer@example.com');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Share',
      description: 'Shows the run',
      viewerEmail: 'viewer@example.com',
    });
  });

  it('renames without the viewer e-mail, which cannot change', async () => {
    const { user, onSubmit } = renderDialog(LIST_KINDS.NAVIGATOR, 'rename', undefined, {
      name: 'Share',
      description: 'Shows the run',
    });
    expect(screen.getByRole('dialog', { name: 'Rename navigator' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Viewer e-mail' })).toBeNull();
    expect((field('Name') as HTMLInputElement).value).toBe('Share');
    await fill(user, 'Name', 'Share 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Share 2', description: 'Shows the run', viewerEmail: '' });
  });

  it('shows the unique-name error under the name when the server answers 409', async () => {
    const onSubmit = vi.fn(async () => {
      throw new ApiError({
        status: 409,
        message: MESSAGES['extractor.list.error.unique'],
        code: 'NAME_EXISTS',
        field: 'name',
        hasServerMessage: true,
      });
    });
    const { user } = renderDialog(LIST_KINDS.EXTRACTOR, 'create', onSubmit);
    await fill(user, 'Name', 'Prices');
    await fill(user, 'Description', 'Daily');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByText(MESSAGES['extractor.list.error.unique'])).toBeTruthy());
    expect(field('Name').getAttribute('aria-invalid')).toBe('true');
    // Changing the name takes the server's error away.
    await user.type(field('Name'), ' 2');
    expect(screen.queryByText(MESSAGES['extractor.list.error.unique'])).toBeNull();
  });
});
