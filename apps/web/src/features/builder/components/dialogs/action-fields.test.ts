import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPES,
  ASK_ACTION_TYPES,
  JUMP_ACTION_TYPES,
  TIMED_ACTION_TYPES,
  isAnswerSavable,
  type ActionType,
} from '@pagewright/shared';
import { ACTION_FIELDS } from './action-fields';
import { needsActionDialog } from './needs-action-dialog';

const kindsOf = (type: ActionType) => ACTION_FIELDS[type].map((field) => field.kind);
const ASKS: readonly ActionType[] = [
  ...ASK_ACTION_TYPES,
  'ASK_F_ENGINE_USER',
  'ASK_F_ENGINE_URL',
  'ASK_F_ENGINE_PASSWORD',
];

describe('the action fields registry', () => {
  it('lists every action type, and nothing else', () => {
    expect(Object.keys(ACTION_FIELDS).sort()).toEqual([...ACTION_TYPES].sort());
  });

  it('shows each field at most once per type', () => {
    for (const type of ACTION_TYPES) expect(new Set(kindsOf(type)).size).toBe(kindsOf(type).length);
  });

  it('agrees with the shared groups: jumps, bounded waits and asks', () => {
    for (const type of ACTION_TYPES) {
      const kinds = kindsOf(type);
      expect(kinds.includes('nextSequence'), type).toBe(JUMP_ACTION_TYPES.includes(type));
      expect(kinds.includes('timeout'), type).toBe(
        TIMED_ACTION_TYPES.includes(type) || type === 'CHECK_TEXT',
      );
      expect(kinds.includes('question'), type).toBe(ASKS.includes(type));
      expect(kinds.includes('saveForNextTime'), type).toBe(ASKS.includes(type) && isAnswerSavable(type));
    }
  });

  it('shows nothing for the actions added without a dialog', () => {
    for (const type of ACTION_TYPES.filter((candidate) => !needsActionDialog(candidate)))
      expect(ACTION_FIELDS[type], type).toEqual([]);
  });

  it('declares the fields of representative types in the order they show', () => {
    expect(ACTION_FIELDS.NAVIGATE).toEqual([{ kind: 'url' }, { kind: 'makeInput' }]);
    expect(ACTION_FIELDS.TYPE_TEXT).toEqual([
      { kind: 'text', label: 'dialogs.field.text', isTrimmed: false },
      { kind: 'makeInput' },
    ]);
    expect(kindsOf('CHECK_TEXT')).toEqual(['text', 'timeout']);
    expect(kindsOf('IF_EXISTS')).toEqual(['nextSequence', 'timeout']);
    expect(kindsOf('IF_CONDITION')).toEqual(['condition', 'nextSequence']);
    expect(kindsOf('CLICK')).toEqual([]);
    expect(ACTION_FIELDS.ASK_PASSWORD).toEqual([
      { kind: 'question', isRequired: true },
      { kind: 'answer', input: 'secret', isTypedIntoPage: true },
      { kind: 'saveForNextTime' },
    ]);
    expect(ACTION_FIELDS.ASK_RECAPTCHA).toEqual([{ kind: 'question', isRequired: false }]);
  });
});
