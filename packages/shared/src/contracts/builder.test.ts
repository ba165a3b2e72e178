import { describe, expect, it } from 'vitest';
import { ACTION_LABEL_MAX_LENGTH } from '../constants.js';
import { flowActionSchema } from './automation.js';
import { addActionRequestSchema, changeActionRequestSchema } from './builder.js';

describe('an action’s label (a text field of the spec: up to 1024 characters)', () => {
  const label = (length: number) => 'L'.repeat(length);

  it('is kept whole up to 1024 characters when added, changed and run', () => {
    expect(ACTION_LABEL_MAX_LENGTH).toBe(1024);
    const added = addActionRequestSchema.parse({ type: 'GET_TEXT', label: label(1024) });
    expect(added.label).toHaveLength(1024);
    expect(changeActionRequestSchema.parse({ sequence: 20, label: label(1024) }).label).toHaveLength(1024);
    expect(flowActionSchema.parse({ sequence: 20, type: 'GET_TEXT', label: label(1024) }).label).toHaveLength(
      1024,
    );
  });

  it('is refused over 1024 characters, naming the field', () => {
    const refused = addActionRequestSchema.safeParse({ type: 'GET_TEXT', label: label(1025) });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['label']);
  });
});
