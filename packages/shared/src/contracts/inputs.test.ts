import { describe, expect, it } from 'vitest';
import {
  INPUT_MESSAGES,
  InputSubstitutionError,
  fillFlowInputs,
  fillInputs,
  isInputValueValid,
  resolveInputValues,
  type ExtractorInput,
} from './inputs.js';
import type { FlowAction } from './automation.js';

const DECLARED: ExtractorInput[] = [
  { name: 'page', type: 'URL', defaultValue: 'https://shop.example/?q=a' },
  { name: 'count', type: 'NUMBER', defaultValue: '1' },
];

describe('inputs', () => {
  it('checks each type', () => {
    expect(isInputValueValid('NUMBER', '-3.5')).toBe(true);
    expect(isInputValueValid('NUMBER', '3e9')).toBe(false);
    expect(isInputValueValid('URL', 'javascript:alert(1)')).toBe(false);
    expect(isInputValueValid('EMAIL', 'ana@example.com')).toBe(true);
    expect(isInputValueValid('EMAIL', 'ana@')).toBe(false);
    expect(isInputValueValid('DATE', '2026-02-30')).toBe(false);
    expect(isInputValueValid('DATE', '2026-02-28')).toBe(true);
  });

  it('fills the defaults in, refuses unknown names and wrong types naming the input', () => {
    expect(resolveInputValues(DECLARED, { count: '7' })).toEqual({
      ok: true,
      values: { page: 'https://shop.example/?q=a', count: '7' },
    });
    expect(resolveInputValues(DECLARED, { color: 'red' })).toMatchObject({ ok: false, name: 'color' });
    const wrong = resolveInputValues(DECLARED, { count: 'many' });
    expect(wrong).toMatchObject({ ok: false, name: 'count' });
    expect(!wrong.ok && wrong.message).toContain('count');
  });

  it('substitutes as plain text, once, and keeps NAVIGATE on http(s)', () => {
    expect(fillInputs('{{input.a}} and {{input.b}}', { a: '{{input.b}}', b: '$& $1' })).toBe(
      '{{input.b}} and $& $1',
    );
    const flow: FlowAction[] = [
      { sequence: 10, type: 'NAVIGATE', options: { text: '{{input.page}}' } },
      { sequence: 20, type: 'RAISE_ERROR', options: { text: '{{input.page}}' } },
    ];
    expect(fillFlowInputs(flow, { page: 'https://x.example/' }).map((action) => action.options.text)).toEqual(
      ['https://x.example/', '{{input.page}}'],
    );
    expect(() => fillFlowInputs(flow, { page: 'file:///etc/passwd' })).toThrow(
      new InputSubstitutionError(INPUT_MESSAGES.notHttp.replace('{{sequence}}', '10'), 10),
    );
  });
});
