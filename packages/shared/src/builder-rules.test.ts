import { describe, expect, it } from 'vitest';
import {
  actionRuleError,
  clampWaitSeconds,
  digitsOnly,
  isFileColumnArea,
  isSequenceAllowed,
  nextSequence,
  numberMaskRuleError,
  offeredConditions,
} from './builder-rules.js';

const MASK = {
  beforePositive: '',
  afterPositive: '',
  beforeNegative: '-',
  afterNegative: '',
  decimalSeparator: '.',
  groupSeparator: ',',
};

describe('builder rules (automation spec §5)', () => {
  it('sequences: not negative, above the first, unused; default the next ten', () => {
    const others = [10, 20, 35];
    expect(isSequenceAllowed(-10, [])).toBe(false);
    expect(isSequenceAllowed(10, others)).toBe(false);
    expect(isSequenceAllowed(5, others)).toBe(false);
    expect(isSequenceAllowed(20, others)).toBe(false);
    expect(isSequenceAllowed(15, others)).toBe(true);
    expect(isSequenceAllowed(10, [])).toBe(true);
    expect(nextSequence(others)).toBe(40);
    expect(nextSequence([])).toBe(10);
  });

  it('digits-only fields and the Wait clamp', () => {
    expect(digitsOnly('12ab3456789012')).toBe('1234567890');
    expect(clampWaitSeconds('75')).toBe(60);
    expect(clampWaitSeconds('')).toBe(0);
    expect(clampWaitSeconds('a7')).toBe(7);
  });

  it('number masks: one-character affixes, one of prefix/suffix, both separators', () => {
    expect(numberMaskRuleError(MASK)).toBeNull();
    expect(numberMaskRuleError({ ...MASK, beforePositive: 'US' })?.field).toBe('beforePositive');
    expect(numberMaskRuleError({ ...MASK, beforePositive: '$', afterPositive: '$' })?.field).toBe(
      'afterPositive',
    );
    expect(numberMaskRuleError({ ...MASK, afterNegative: '-' })?.field).toBe('afterNegative');
    expect(numberMaskRuleError({ ...MASK, decimalSeparator: '' })).toEqual({
      field: 'decimalSeparator',
      message: 'Required',
    });
    expect(numberMaskRuleError({ ...MASK, groupSeparator: '' })?.message).toBe('Required');
    expect(numberMaskRuleError({ ...MASK, groupSeparator: '.' })?.field).toBe('groupSeparator');
  });

  it('the API refuses a GET_NUMBER mask the dialog refuses', () => {
    const broken = actionRuleError(
      {
        type: 'GET_NUMBER',
        sequence: 20,
        target: { selectorType: 'CSS', selectorValue: '#total', framePath: [], fallbackLocators: [] },
        options: { numberFormat: { ...MASK, groupSeparator: '' } },
        hasCredentials: false,
      },
      [{ sequence: 10, type: 'NAVIGATE', options: {} }],
      'EXTRACTOR',
      true,
    );
    expect(broken).toEqual({ field: 'options.numberFormat.groupSeparator', message: 'Required' });
  });

  it('asks for an id, password or code need the field their answer is typed into', () => {
    const first = [{ sequence: 10, type: 'NAVIGATE' as const, options: {} }];
    for (const type of ['ASK_ID', 'ASK_PASSWORD', 'ASK_CODE'] as const)
      expect(
        actionRuleError({ type, sequence: 20, options: {}, hasCredentials: false }, first, 'EXTRACTOR', true),
      ).toEqual({
        field: 'target',
        message: 'Required',
      });
    expect(
      actionRuleError(
        {
          type: 'ASK_PASSWORD',
          sequence: 20,
          options: {},
          hasCredentials: false,
          target: { selectorType: 'CSS', selectorValue: '#password', framePath: [], fallbackLocators: [] },
        },
        first,
        'INSERTOR',
        true,
      ),
    ).toBeNull();
  });

  it('insertors offer Select option, the waits and Check text; answers to dialogs are only recorded', () => {
    const first = [{ sequence: 10, type: 'NAVIGATE' as const, options: {} }];
    const target = {
      selectorType: 'CSS' as const,
      selectorValue: '#category',
      framePath: [],
      fallbackLocators: [],
    };
    expect(
      actionRuleError(
        {
          type: 'CLICK_SELECT',
          sequence: 20,
          target,
          options: { select: { option: 'b', options: [] } },
          hasCredentials: false,
        },
        first,
        'INSERTOR',
        true,
      ),
    ).toBeNull();
    expect(
      actionRuleError(
        { type: 'CHECK_TEXT', sequence: 20, options: {}, hasCredentials: false },
        first,
        'INSERTOR',
        true,
      ),
    ).toEqual({
      field: 'textValue',
      message: 'Required',
    });
    expect(
      actionRuleError(
        {
          type: 'ANSWER_DIALOG',
          sequence: 20,
          options: { dialog: { type: 'confirm', message: 'Sure?', accept: true } },
          hasCredentials: false,
        },
        first,
        'EXTRACTOR',
        true,
      )?.field,
    ).toBe('type');
  });

  it('orderings only for number and date results, scripts included', () => {
    expect(offeredConditions({ type: 'GET_TEXT', options: {} })).toHaveLength(4);
    expect(offeredConditions({ type: 'GET_DATE', options: {} })).toHaveLength(8);
    expect(
      offeredConditions({ type: 'SCRIPT', options: { script: { script: '', returnType: 'DATETIME' } } }),
    ).toHaveLength(8);
    expect(
      offeredConditions({ type: 'SCRIPT', options: { script: { script: '', returnType: 'TABLE' } } }),
    ).toHaveLength(4);
    expect(offeredConditions(undefined)).toEqual(['EQUAL', 'NOT_EQUAL', 'CONTAINS', 'NOT_CONTAINS']);
  });

  it('a FILE column needs an anchor or a link inside', () => {
    expect(isFileColumnArea({ containsHref: false, tagName: 'td' })).toBe(false);
    expect(isFileColumnArea({ containsHref: true, tagName: 'td' })).toBe(true);
    expect(isFileColumnArea({ containsHref: false, tagName: 'A' })).toBe(true);
  });
});
