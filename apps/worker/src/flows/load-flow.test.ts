import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AutomationError } from '@pagewright/automation';
import { actionSecretContext, createSecretBox } from '@pagewright/db';
import { toFlowAction, type StoredAction } from './load-flow.js';

const secrets = createSecretBox(randomBytes(32).toString('hex'));
const userId = 'user-1';

function row(overrides: Partial<StoredAction>): StoredAction {
  const now = new Date();
  return {
    id: 'action-1',
    extractorId: 'extractor-1',
    sequence: 10,
    type: 'CLICK',
    label: null,
    selectorType: 'CSS',
    selectorValue: null,
    xpathValue: null,
    fallbackLocators: [],
    framePath: [],
    pageUrl: null,
    textValue: null,
    secretCiphertext: null,
    secretIv: null,
    secretAuthTag: null,
    saveOptionsFlag: false,
    options: null,
    fengineData: null,
    ifValue: null,
    ifSequenceSource: null,
    ifSequenceDestination: null,
    ifCondition: null,
    isValidated: false,
    validationError: null,
    pageScreenshotFileId: null,
    elementScreenshotFileId: null,
    createdAt: now,
    updatedAt: now,
    getTable: null,
    numberMask: null,
    dateMask: null,
    ...overrides,
  };
}

describe('toFlowAction: a stored action as the engine runs it', () => {
  it('builds the target from the selector columns and keeps no target without a selector', () => {
    const action = toFlowAction(
      row({
        selectorValue: '#submit',
        xpathValue: '//button',
        framePath: ['iframe#app'],
        fallbackLocators: [{ kind: 'testId', value: 'submit' }],
        textValue: 'hello',
      }),
      userId,
      secrets,
    );
    expect(action).toEqual({
      sequence: 10,
      type: 'CLICK',
      target: {
        selectorType: 'CSS',
        selectorValue: '#submit',
        xpathValue: '//button',
        framePath: ['iframe#app'],
        fallbackLocators: [{ kind: 'testId', value: 'submit' }],
      },
      options: { text: 'hello' },
    });
    expect(toFlowAction(row({ type: 'SCROLL_DOWN' }), userId, secrets).target).toBeUndefined();
  });

  it('opens a sealed secret only with its own user and action', () => {
    const sealed = secrets.seal('s3cret', actionSecretContext(userId, 'action-1'));
    const stored = row({
      type: 'TYPE_PASSWORD',
      selectorValue: '#password',
      secretCiphertext: new Uint8Array(sealed.ciphertext),
      secretIv: new Uint8Array(sealed.iv),
      secretAuthTag: new Uint8Array(sealed.authTag),
    });
    expect(toFlowAction(stored, userId, secrets).options.text).toBe('s3cret');
    expect(() => toFlowAction(stored, 'someone-else', secrets)).toThrow(AutomationError);
    expect(() => toFlowAction(stored, userId, undefined)).toThrow(/ENCRYPTION_KEY/);
  });

  it('folds the if* columns and the mask relations into options', () => {
    const now = new Date();
    const action = toFlowAction(
      row({
        type: 'IF_CONDITION',
        ifSequenceSource: 5,
        ifCondition: 'GREATER_THAN',
        ifValue: '10',
        ifSequenceDestination: 40,
        numberMask: {
          id: 'm',
          actionId: 'action-1',
          beforePositive: '$',
          afterPositive: null,
          beforeNegative: null,
          afterNegative: null,
          decimalSeparator: '.',
          groupSeparator: ',',
          selectorValue: null,
          xpathValue: null,
          createdAt: now,
          updatedAt: now,
        },
        dateMask: {
          id: 'd',
          actionId: 'action-1',
          timezone: 'America/New_York',
          mask: 'MM/dd/yyyy',
          selectorValue: null,
          createdAt: now,
          updatedAt: now,
        },
      }),
      userId,
      secrets,
    );
    expect(action.options).toEqual({
      condition: { sequenceSource: 5, condition: 'GREATER_THAN', value: '10' },
      sequenceDestination: 40,
      numberFormat: {
        beforePositive: '$',
        afterPositive: '',
        beforeNegative: '-',
        afterNegative: '',
        decimalSeparator: '.',
        groupSeparator: ',',
      },
      datetimeFormat: { mask: 'MM/dd/yyyy', gmt: 'America/New_York' },
    });
  });

  it('builds GET_TABLE from its relation, with paging from options.table', () => {
    const now = new Date();
    const action = toFlowAction(
      row({
        type: 'GET_TABLE',
        options: { table: { nextPageSelector: '#next', maxPages: 3 } },
        getTable: {
          id: 't',
          actionId: 'action-1',
          name: 'Rows',
          tableSelector: 'table',
          rowSelector: 'tbody tr',
          createdAt: now,
          updatedAt: now,
          columns: [
            {
              id: 'c',
              tableId: 't',
              sequence: 1,
              label: 'Amount',
              selector: 'td:nth-child(2)',
              type: 'NUMBER',
              options: { numberMask: { beforePositive: '$' } },
              createdAt: now,
              updatedAt: now,
            },
          ],
        },
      }),
      userId,
      secrets,
    );
    expect(action.options.table).toMatchObject({
      name: 'Rows',
      tableSelector: 'table',
      rowSelector: 'tbody tr',
      nextPageSelector: '#next',
      maxPages: 3,
      columns: [
        { label: 'Amount', type: 'NUMBER', numberMask: { beforePositive: '$', beforeNegative: '-' } },
      ],
    });
  });

  it('refuses options that do not parse, naming the action', () => {
    expect(() => toFlowAction(row({ options: { number: 'ten' } }), userId, secrets)).toThrow(
      /CLICK action at sequence 10 has an invalid options/,
    );
  });
});
