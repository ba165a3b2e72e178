import { describe, expect, it } from 'vitest';
import type { ActionType, BuilderAction, ElementTarget } from '@pagewright/shared';
import {
  actionElement,
  actionFormContext,
  actionFormErrors,
  firstFieldOf,
  initialActionForm,
  toActionInput,
  type ActionForm,
  type ActionFormProps,
} from './action-dialog-state';
import { ACTION_FIELDS } from './action-fields';
import { draftAction } from './test-support';

// A .tsx file so that it runs under jsdom: the mask defaults come with their components, whose API
// client reads the session from localStorage as it loads.

const TARGET: ElementTarget = {
  selectorType: 'CSS',
  selectorValue: '#name',
  framePath: [],
  fallbackLocators: [],
};
const DRAFT = [draftAction(10, 'NAVIGATE'), draftAction(20, 'CLICK')];

function adding(actionType: ActionType, extra: Partial<ActionFormProps> = {}) {
  const props: ActionFormProps = { mode: 'add', actionType, actions: DRAFT, target: TARGET, ...extra };
  const form = initialActionForm(props);
  const withForm = (changes: Partial<ActionForm>) => {
    const changed = { ...form, ...changes };
    const context = actionFormContext(props, changed);
    return { ...actionFormErrors(changed, context), input: toActionInput(changed, context) };
  };
  return { props, form, withForm };
}

function editing(action: BuilderAction) {
  const props: ActionFormProps = {
    mode: 'edit',
    actionType: action.type,
    actions: [...DRAFT, action],
    target: null,
    action,
  };
  const form = initialActionForm(props);
  return { form, context: actionFormContext(props, form) };
}

describe('the action dialog state', () => {
  it('proposes the next free sequence when adding, and keeps the own one when editing', () => {
    expect(adding('CLICK').form.sequence).toBe('30');
    const { form, context } = editing(draftAction(20, 'CLICK'));
    expect(form.sequence).toBe('20');
    expect(context).toMatchObject({ isEdit: true, isFirstAction: false, sequence: 20, others: [10] });
  });

  it('reads an edited action back into the form', () => {
    const action = draftAction(30, 'IF_EXISTS', {
      label: 'Logged in?',
      options: { sequenceDestination: 90, timeoutMs: 4_400 },
    });
    expect(editing(action).form).toMatchObject({ label: 'Logged in?', nextSequence: '90', timeout: '4' });
  });

  it('focuses the first field of the type, else the sequence, else the label', () => {
    expect(firstFieldOf(ACTION_FIELDS.NAVIGATE, true)).toBe('text');
    expect(firstFieldOf(ACTION_FIELDS.ASK_CODE, true)).toBe('text');
    expect(firstFieldOf(ACTION_FIELDS.IF_CONDITION, true)).toBe('condition');
    expect(firstFieldOf(ACTION_FIELDS.CLICK_IF_EXISTS, true)).toBe('timeout');
    expect(firstFieldOf(ACTION_FIELDS.CLICK, true)).toBe('sequence');
    expect(firstFieldOf(ACTION_FIELDS.CLICK, false)).toBe('label');
  });

  it('checks only the fields the type shows', () => {
    const navigate = adding('NAVIGATE', { actions: [] }).withForm({ text: 'example' });
    expect(navigate.errors).toEqual({ text: 'Invalid URL' });
    expect(adding('ASK_QUESTION').withForm({}).hasErrors).toBe(false);
    expect(adding('ASK_ID').withForm({}).errors).toMatchObject({ text: 'Required' });
    expect(adding('WAIT_UNTIL_EXISTS').withForm({ timeout: '121' }).errors).toMatchObject({
      timeout: 'Invalid Value',
    });
    expect(adding('WAIT_UNTIL_EXISTS').withForm({ timeout: '120' }).hasErrors).toBe(false);
  });

  it('counts the errors nested fields show themselves', () => {
    const script = adding('SCRIPT').withForm({ script: { script: ' ', returnType: 'TEXT' } });
    expect(script).toMatchObject({ errors: {}, hasErrors: true });
    expect(adding('IF_CONDITION').withForm({ nextSequence: '90' }).hasErrors).toBe(true);
  });

  it('keeps a stored password unless a new one is typed', () => {
    const { form, context } = editing(draftAction(30, 'TYPE_PASSWORD', { hasCredentials: true }));
    expect(actionFormErrors(form, context).hasErrors).toBe(false);
    expect(toActionInput(form, context)).toEqual({ type: 'TYPE_PASSWORD', sequence: 30, options: {} });
  });

  it('writes each field into the action as the API takes it', () => {
    expect(adding('TYPE_TEXT').withForm({ text: ' Ada ' }).input).toEqual({
      type: 'TYPE_TEXT',
      sequence: 30,
      target: TARGET,
      options: {},
      textValue: ' Ada ',
    });
    expect(adding('CHECK_TEXT').withForm({ text: ' Saved ', timeout: '5' }).input).toMatchObject({
      textValue: 'Saved',
      options: { timeoutMs: 5_000 },
    });
    expect(adding('WAIT', { target: null }).withForm({ seconds: '' }).input).toEqual({
      type: 'WAIT',
      sequence: 30,
      options: { number: 0 },
      textValue: '0',
    });
    expect(adding('ASK_PASSWORD').withForm({ text: ' PIN? ', answer: '1234' }).input).toMatchObject({
      textValue: 'PIN?',
      credentials: '1234',
      saveOptionsFlag: false,
    });
  });

  it('completes GET_TABLE from the edited action, with the name typed', () => {
    const table = { name: 'Old', tableSelector: 'table', rowSelector: 'tr', columns: [], maxPages: 3 };
    const { form, context } = editing(draftAction(30, 'GET_TABLE', { options: { table } }));
    expect(toActionInput({ ...form, tableName: ' Prices ' }, context).options).toEqual({
      table: { ...table, name: 'Prices' },
    });
  });

  it('describes the picked element, else the one stored with the edited action', () => {
    expect(actionElement(TARGET, undefined)).toBe(TARGET);
    expect(actionElement(null, draftAction(20, 'CLICK'))).toBeNull();
    expect(actionElement(null, draftAction(20, 'CLICK', { selectorValue: '#go' }))).toMatchObject({
      selectorValue: '#go',
    });
  });
});
