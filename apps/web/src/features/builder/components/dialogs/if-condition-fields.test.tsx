import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { BuilderAction } from '@pagewright/shared';
import { EMPTY_IF_CONDITION, IfConditionFields, type IfConditionValue } from './if-condition-fields';
import { draftAction, renderDialog } from './test-support';

const DRAFT: BuilderAction[] = [
  draftAction(10, 'NAVIGATE'),
  draftAction(20, 'GET_TEXT', { label: 'Title' }),
  draftAction(30, 'GET_NUMBER', { label: 'Total' }),
  draftAction(40, 'SCRIPT', {
    label: 'Count',
    options: { script: { script: 'return 1;', returnType: 'NUMBER' } },
  }),
  draftAction(50, 'SCRIPT', {
    label: 'Name',
    options: { script: { script: "return 'a';", returnType: 'TEXT' } },
  }),
  draftAction(60, 'GET_DATE', { label: 'Later date' }),
];

function Harness() {
  const [value, setValue] = useState<IfConditionValue>(EMPTY_IF_CONDITION);
  return (
    <IfConditionFields value={value} onChange={setValue} actions={DRAFT} sequence={55} showErrors={false} />
  );
}

async function choose(user: ReturnType<typeof renderDialog>['user'], label: RegExp, option: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

async function offeredConditions(user: ReturnType<typeof renderDialog>['user']): Promise<string[]> {
  await user.click(screen.getByLabelText(/^Condition/));
  const names = within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
  await user.keyboard('{Escape}');
  return names;
}

describe('IfConditionFields', () => {
  it('offers earlier get and script actions only', async () => {
    const { user } = renderDialog(<Harness />);
    await user.click(screen.getByLabelText(/^Source action/));
    const names = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names).toEqual(['20 · Title', '30 · Total', '40 · Count', '50 · Name']);
  });

  const equality = ['Equal', 'Not equal', 'Contains', 'Does not contain'];
  const all = [...equality, 'Greater than', 'Less than', 'Greater than or equal', 'Less than or equal'];

  it('offers only the equality conditions for a text result', async () => {
    const { user } = renderDialog(<Harness />);
    await choose(user, /^Source action/, '20 · Title');
    expect(await offeredConditions(user)).toEqual(equality);
  });

  it('offers the ordering conditions for numbers and scripts returning a number', async () => {
    const { user } = renderDialog(<Harness />);
    await choose(user, /^Source action/, '30 · Total');
    expect(await offeredConditions(user)).toEqual(all);
    await choose(user, /^Source action/, '40 · Count');
    expect(await offeredConditions(user)).toEqual(all);
  });

  it('drops an ordering condition when the source becomes a text script', async () => {
    const { user } = renderDialog(<Harness />);
    await choose(user, /^Source action/, '40 · Count');
    await choose(user, /^Condition/, 'Greater than');
    await choose(user, /^Source action/, '50 · Name');
    expect(screen.getByLabelText(/^Condition/).textContent).not.toContain('Greater than');
    expect(await offeredConditions(user)).toEqual(equality);
  });
});
