import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { FallbackLocator } from '@pagewright/shared';

/** Anything Playwright can build locators from. */
export type LocatorScope = Page | Frame | FrameLocator | Locator;

type AriaRole = Parameters<Page['getByRole']>[0];

/** The attributes a recorded test id may come from, in the order the recorder reads them. */
export const TEST_ID_ATTRIBUTES = ['data-testid', 'data-test', 'data-qa'] as const;

/** A CSS string literal (double-quoted, escaped) for attribute selectors. */
export function cssString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The Playwright locator for one fallback. Playwright's css engine pierces open shadow roots. */
export function locatorFor(scope: LocatorScope, fallback: FallbackLocator): Locator {
  switch (fallback.kind) {
    case 'testId': {
      const quoted = cssString(fallback.value);
      return scope.locator(TEST_ID_ATTRIBUTES.map((attribute) => `[${attribute}=${quoted}]`).join(','));
    }
    case 'id':
      return scope.locator(`[id=${cssString(fallback.value)}]`);
    case 'role':
      return scope.getByRole(fallback.role as AriaRole, { name: fallback.name, exact: true });
    case 'label':
      return scope.getByLabel(fallback.value, { exact: true });
    case 'text': {
      if (!fallback.tagName) return scope.getByText(fallback.value, { exact: true });
      const exactText = new RegExp(`^\\s*${escapeRegExp(fallback.value).replace(/\s+/g, '\\s+')}\\s*$`);
      return scope.locator(`css=${fallback.tagName}`).filter({ hasText: exactText });
    }
    case 'attributes': {
      const attributes = Object.entries(fallback.attributes)
        .map(([name, value]) => `[${name}=${cssString(value)}]`)
        .join('');
      return scope.locator(`css=${fallback.tagName}${attributes}`);
    }
    case 'css':
      return scope.locator(`css=${fallback.value}`);
    case 'xpath':
      return scope.locator(`xpath=${fallback.value}`);
  }
}
