/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Frame, Page } from 'playwright-core';
import type { ElementType, FallbackLocator } from '@pagewright/shared';

/**
 * The code that reads a page from inside it. `pageProbe` is serialised and run by one evaluate per
 * frame, so it must stay self-contained: no imports, no module-level helpers, and it must not rely
 * on `instanceof` (elements of same-origin iframes belong to another realm). Every answer is one
 * string because a JSON string crosses the protocol several times faster than an object (see
 * performance-floor.md).
 */

export type ProbeRequest =
  { mode: 'point'; x: number; y: number } | { mode: 'areas' } | { mode: 'html'; maxLength: number };

export interface ProbedElement {
  type: ElementType;
  tagName: string;
  textContent: string;
  box: { x: number; y: number; width: number; height: number };
  selector: string;
  /** Absolute XPath within the element's document; null inside shadow DOM (XPath cannot pierce it). */
  xpath: string | null;
  /** CSS selectors of the same-origin iframes entered, outermost first. */
  framePath: string[];
  fallbacks: FallbackLocator[];
  isDownloadLink: boolean;
  /** A select's options (label and value), so the builder can offer them for CLICK_SELECT. */
  selectOptions?: { label: string; value: string }[];
}

export type PointProbeAnswer =
  | { kind: 'none' }
  | { kind: 'element'; element: ProbedElement }
  /** The point is over a cross-origin iframe: continue in that frame at (x, y). */
  | { kind: 'frame'; framePath: string[]; x: number; y: number; offsetX: number; offsetY: number };

export interface ProbedArea {
  id: number;
  parentId: number | null;
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string;
  xpath: string;
  textContent: string;
  hasText: boolean;
  containsHref: boolean;
  tagName: string;
}

export function pageProbe(request: ProbeRequest): string {
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const TEXT_CAP = 200;
  const SELECT_OPTIONS_MAX = 500;
  const FALLBACK_TEXT_MAX = 80;
  const TEXT_INPUT_TYPES = [
    '',
    'text',
    'email',
    'search',
    'tel',
    'url',
    'number',
    'date',
    'datetime-local',
    'month',
    'week',
    'time',
  ];
  const CLICKABLE_ROLES = ['button', 'link', 'checkbox', 'radio', 'menuitem', 'tab', 'option', 'switch'];
  const FALLBACK_ROLES = [
    'button',
    'link',
    'textbox',
    'searchbox',
    'checkbox',
    'radio',
    'combobox',
    'listbox',
    'spinbutton',
    'slider',
    'switch',
    'tab',
    'menuitem',
    'option',
  ];
  const IMPLICIT_INPUT_ROLES: Record<string, string> = {
    button: 'button',
    checkbox: 'checkbox',
    image: 'button',
    number: 'spinbutton',
    radio: 'radio',
    range: 'slider',
    reset: 'button',
    submit: 'button',
    file: 'button',
  };
  const ROLE_CANDIDATES = 'a[href], button, input, textarea, select, [role]';
  const SKIPPED_TAGS = ['script', 'style', 'noscript', 'template', 'head'];
  const DOWNLOAD_PATH = /\.(pdf|csv|xlsx?|docx?|zip|txt|json|xml|ofx|qfx|qif)$/i;

  const normalize = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();
  const round = (value: number): number => Math.round(value * 100) / 100;
  const cssString = (value: string): string =>
    '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const isShadowRoot = (node: Node): node is ShadowRoot => node.nodeType === 11 && 'host' in node;
  const inputType = (el: Element): string => (el.getAttribute('type') ?? '').toLowerCase();

  /** What Playwright's css engine sees: the light tree plus every open shadow root below it. */
  const deepQueryAll = (root: Document | ShadowRoot | Element, selector: string): Element[] => {
    const found: Element[] = [];
    const visit = (node: Document | ShadowRoot | Element): void => {
      for (const el of node.querySelectorAll(selector)) found.push(el);
      for (const el of node.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
      if (node.nodeType === 1 && (node as Element).shadowRoot)
        visit((node as Element).shadowRoot as ShadowRoot);
    };
    visit(root);
    return found;
  };
  const deepCount = (root: Document | ShadowRoot | Element, selector: string): number =>
    deepQueryAll(root, selector).length;

  const styleOf = (el: Element): CSSStyleDeclaration | null =>
    el.ownerDocument.defaultView ? el.ownerDocument.defaultView.getComputedStyle(el) : null;
  const isVisible = (el: Element): boolean => {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = styleOf(el);
    return !style || (style.visibility !== 'hidden' && style.visibility !== 'collapse');
  };

  const classify = (el: Element): ElementType => {
    const tag = el.localName;
    if (tag === 'input') {
      const type = inputType(el);
      if (type === 'password') return 'INPUTABLE_PASSWORD';
      if (TEXT_INPUT_TYPES.includes(type)) return 'INPUTABLE_TEXT';
      return type === 'hidden' ? 'OTHER' : 'CLICKABLE';
    }
    if (tag === 'textarea' || (el as HTMLElement).isContentEditable) return 'INPUTABLE_TEXT';
    if (tag === 'select') return 'SELECT';
    if (tag === 'a' || tag === 'button' || tag === 'summary') return 'CLICKABLE';
    if (CLICKABLE_ROLES.includes((el.getAttribute('role') ?? '').toLowerCase())) return 'CLICKABLE';
    if (el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function') return 'CLICKABLE';
    return styleOf(el)?.cursor === 'pointer' ? 'CLICKABLE' : 'OTHER';
  };

  const siblingsOf = (el: Element): Element[] => {
    const parent = el.parentElement ?? (el.parentNode as ParentNode | null);
    return parent ? Array.from(parent.children) : [el];
  };
  const nthOfTypeSegment = (el: Element): string => {
    const sameType = siblingsOf(el).filter(
      (s) => s.localName === el.localName && s.namespaceURI === el.namespaceURI,
    );
    const tag = CSS.escape(el.localName);
    return sameType.length > 1 ? `${tag}:nth-of-type(${sameType.indexOf(el) + 1})` : tag;
  };

  /** A path of tag:nth-of-type steps, shortened at the first ancestor whose id is unique in `scope`. */
  const pathSelector = (el: Element, scope: Document | Element): string => {
    const parts: string[] = [];
    for (let current: Element | null = el; current; current = current.parentElement) {
      if (current.id && deepCount(scope, '#' + CSS.escape(current.id)) === 1) {
        parts.unshift('#' + CSS.escape(current.id));
        break;
      }
      parts.unshift(nthOfTypeSegment(current));
    }
    return parts.join(' > ');
  };

  /**
   * A CSS selector Playwright resolves to `el`. Inside shadow DOM it is "<host selector> <inner>",
   * relying on Playwright's css engine piercing open shadow roots; <inner> is unique within the host.
   */
  const uniqueSelector = (el: Element): string => {
    const root = el.getRootNode();
    if (!isShadowRoot(root)) return pathSelector(el, root as Document);
    const host = root.host;
    const hostSelector = uniqueSelector(host);
    const name = el.getAttribute('name');
    if (!el.id && name) {
      const byName = `${CSS.escape(el.localName)}[name=${cssString(name)}]`;
      if (deepCount(host, byName) === 1) return `${hostSelector} ${byName}`;
    }
    return `${hostSelector} ${pathSelector(el, host)}`;
  };

  const xpathOf = (el: Element): string | null => {
    if (isShadowRoot(el.getRootNode())) return null;
    const steps: string[] = [];
    for (let current: Element | null = el; current; current = current.parentElement) {
      const step = current.namespaceURI === XHTML ? current.localName : `*[name()="${current.localName}"]`;
      const sameName = siblingsOf(current).filter(
        (s) => s.localName === current?.localName && s.namespaceURI === current.namespaceURI,
      );
      steps.unshift(sameName.length > 1 ? `${step}[${sameName.indexOf(current) + 1}]` : step);
    }
    return '/' + steps.join('/');
  };

  const labelTexts = (el: Element): string[] => {
    const labels = (el as HTMLInputElement).labels;
    return labels ? Array.from(labels, (label) => normalize(label.textContent)).filter(Boolean) : [];
  };

  const roleOf = (el: Element): string | null => {
    const explicit = (el.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = el.localName;
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : null;
    if (tag === 'button') return 'button';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') {
      return el.hasAttribute('multiple') || Number(el.getAttribute('size')) > 1 ? 'listbox' : 'combobox';
    }
    if (tag !== 'input') return null;
    const type = inputType(el);
    if (['', 'text', 'email', 'tel', 'url', 'search'].includes(type)) {
      if (el.getAttribute('list')) return 'combobox';
      return type === 'search' ? 'searchbox' : 'textbox';
    }
    if (type === 'hidden') return null;
    return IMPLICIT_INPUT_ROLES[type] ?? 'textbox';
  };

  const accessibleName = (el: Element): string => {
    const labelledBy = normalize(el.getAttribute('aria-labelledby'));
    if (labelledBy) {
      const doc = el.ownerDocument;
      const text = normalize(
        labelledBy
          .split(' ')
          .map((id) => doc.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      if (text) return text;
    }
    const ariaLabel = normalize(el.getAttribute('aria-label'));
    if (ariaLabel) return ariaLabel;
    const tag = el.localName;
    if (tag === 'input') {
      const type = inputType(el);
      if (type === 'submit' || type === 'reset' || type === 'button') {
        const value = normalize(el.getAttribute('value'));
        if (value || type === 'button') return value;
        return type === 'submit' ? 'Submit' : 'Reset';
      }
      if (type === 'image') return normalize(el.getAttribute('alt'));
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const labels = labelTexts(el);
      if (labels.length > 0) return labels.join(' ');
      return normalize(el.getAttribute('title')) || normalize(el.getAttribute('placeholder'));
    }
    return normalize(el.textContent) || normalize(el.getAttribute('title'));
  };

  const fallbacksFor = (el: Element, selector: string, xpath: string | null): FallbackLocator[] => {
    const doc = el.ownerDocument;
    const tag = el.localName;
    const fallbacks: FallbackLocator[] = [];

    const testId =
      el.getAttribute('data-testid') ?? el.getAttribute('data-test') ?? el.getAttribute('data-qa');
    if (testId) {
      const quoted = cssString(testId);
      if (deepCount(doc, `[data-testid=${quoted}],[data-test=${quoted}],[data-qa=${quoted}]`) === 1) {
        fallbacks.push({ kind: 'testId', value: testId });
      }
    }

    if (el.id && deepCount(doc, `[id=${cssString(el.id)}]`) === 1)
      fallbacks.push({ kind: 'id', value: el.id });

    const role = roleOf(el);
    const name = accessibleName(el);
    if (role && FALLBACK_ROLES.includes(role) && name) {
      const sameRoleAndName = deepQueryAll(doc, ROLE_CANDIDATES).filter(
        (candidate) =>
          roleOf(candidate) === role && isVisible(candidate) && accessibleName(candidate) === name,
      );
      if (sameRoleAndName.length === 1) fallbacks.push({ kind: 'role', role, name });
    }

    const label = labelTexts(el)[0] ?? normalize(el.getAttribute('aria-label'));
    if (label) {
      const sameLabel = deepQueryAll(
        doc,
        'input, select, textarea, button, meter, output, progress, [aria-label]',
      ).filter(
        (candidate) =>
          labelTexts(candidate).includes(label) || normalize(candidate.getAttribute('aria-label')) === label,
      );
      if (sameLabel.length === 1) fallbacks.push({ kind: 'label', value: label });
    }

    const text = normalize(el.textContent);
    if (classify(el) === 'CLICKABLE' && text && text.length <= FALLBACK_TEXT_MAX) {
      const sameText = deepQueryAll(doc, CSS.escape(tag)).filter(
        (candidate) => normalize(candidate.textContent) === text,
      );
      if (sameText.length === 1) fallbacks.push({ kind: 'text', value: text, tagName: tag });
    }

    const attributes: Record<string, string> = {};
    const stable = ['name', 'type', 'placeholder', 'href', 'title', 'alt'];
    if (tag === 'button' || (tag === 'input' && ['button', 'submit', 'reset'].includes(inputType(el)))) {
      stable.push('value');
    }
    for (const attribute of stable) {
      const value = el.getAttribute(attribute);
      if (value !== null && value !== '') attributes[attribute] = value;
    }
    if (Object.keys(attributes).length > 0) {
      const attributeSelector =
        CSS.escape(tag) +
        Object.entries(attributes)
          .map(([attribute, value]) => `[${attribute}=${cssString(value)}]`)
          .join('');
      if (deepCount(doc, attributeSelector) === 1)
        fallbacks.push({ kind: 'attributes', tagName: tag, attributes });
    }

    fallbacks.push({ kind: 'css', value: selector });
    if (xpath) fallbacks.push({ kind: 'xpath', value: xpath });
    return fallbacks;
  };

  const isDownloadLink = (el: Element): boolean => {
    const link = el.closest('a[href]');
    if (!link) return false;
    if (link.hasAttribute('download')) return true;
    try {
      return DOWNLOAD_PATH.test(new URL(link.getAttribute('href') ?? '', el.ownerDocument.baseURI).pathname);
    } catch {
      return false;
    }
  };

  const atPoint = (x: number, y: number): PointProbeAnswer => {
    let doc: Document = document;
    let offsetX = 0;
    let offsetY = 0;
    const framePath: string[] = [];
    let el: Element | null;
    for (;;) {
      el = doc.elementFromPoint(x - offsetX, y - offsetY);
      if (!el) return { kind: 'none' };
      while (el.shadowRoot) {
        const inner: Element | null = el.shadowRoot.elementFromPoint(x - offsetX, y - offsetY);
        if (!inner || inner === el) break;
        el = inner;
      }
      if (el.localName !== 'iframe' && el.localName !== 'frame') break;
      const frameElement = el as HTMLIFrameElement;
      const rect = frameElement.getBoundingClientRect();
      const style = styleOf(frameElement);
      const contentX = rect.left + frameElement.clientLeft + parseFloat(style?.paddingLeft ?? '0');
      const contentY = rect.top + frameElement.clientTop + parseFloat(style?.paddingTop ?? '0');
      framePath.push(uniqueSelector(frameElement));
      // contentDocument is null for a cross-origin frame.
      const childDoc = frameElement.contentDocument;
      if (!childDoc?.documentElement) {
        return {
          kind: 'frame',
          framePath,
          x: x - offsetX - contentX,
          y: y - offsetY - contentY,
          offsetX: offsetX + contentX,
          offsetY: offsetY + contentY,
        };
      }
      offsetX += contentX;
      offsetY += contentY;
      doc = childDoc;
    }
    // Recorders act on what a user means to click: text inside a button or link is the button or link.
    const deepest: Element = el;
    let element = deepest;
    if (classify(deepest) === 'OTHER') {
      element =
        deepest.closest(
          'a[href], button, [role="button"], [role="link"], [role="menuitem"], [role="tab"], summary',
        ) ?? deepest;
    }
    const selector = uniqueSelector(element);
    const xpath = xpathOf(element);
    const rect = element.getBoundingClientRect();
    return {
      kind: 'element',
      element: {
        type: classify(element),
        tagName: element.localName,
        textContent: normalize(element.textContent).slice(0, TEXT_CAP),
        box: {
          x: round(rect.left + offsetX),
          y: round(rect.top + offsetY),
          width: round(rect.width),
          height: round(rect.height),
        },
        selector,
        xpath,
        framePath,
        fallbacks: fallbacksFor(element, selector, xpath),
        isDownloadLink: isDownloadLink(element),
        ...(element.localName === 'select'
          ? {
              selectOptions: Array.from((element as HTMLSelectElement).options)
                .slice(0, SELECT_OPTIONS_MAX)
                .map((option) => ({
                  label: normalize(option.label).slice(0, TEXT_CAP),
                  value: option.value,
                })),
            }
          : {}),
      },
    };
  };

  const areas = (): ProbedArea[] => {
    const idCounts = new Map<string, number>();
    for (const el of deepQueryAll(document, '[id]')) idCounts.set(el.id, (idCounts.get(el.id) ?? 0) + 1);
    const found: ProbedArea[] = [];
    // Returns whether the subtree holds a link, so containsHref costs one pass.
    const visitChildren = (
      parent: ParentNode,
      parentAreaId: number | null,
      parentSelector: string,
      parentXpath: string,
    ): boolean => {
      const children = Array.from(parent.children);
      const totals = new Map<string, number>();
      for (const child of children) {
        const key = `${child.namespaceURI} ${child.localName}`;
        totals.set(key, (totals.get(key) ?? 0) + 1);
      }
      const seen = new Map<string, number>();
      let subtreeHasHref = false;
      for (const child of children) {
        const key = `${child.namespaceURI} ${child.localName}`;
        const index = (seen.get(key) ?? 0) + 1;
        seen.set(key, index);
        const tag = child.localName;
        if (SKIPPED_TAGS.includes(tag)) continue;
        const isRepeated = (totals.get(key) ?? 0) > 1;
        const segment = isRepeated ? `${CSS.escape(tag)}:nth-of-type(${index})` : CSS.escape(tag);
        const selector =
          child.id && idCounts.get(child.id) === 1
            ? '#' + CSS.escape(child.id)
            : parentSelector
              ? `${parentSelector} > ${segment}`
              : segment;
        const step = child.namespaceURI === XHTML ? tag : `*[name()="${tag}"]`;
        const xpath = `${parentXpath}/${step}${isRepeated ? `[${index}]` : ''}`;

        let area: ProbedArea | null = null;
        if (isVisible(child)) {
          const rect = child.getBoundingClientRect();
          const ownText = normalize(
            Array.from(child.childNodes)
              .filter((node) => node.nodeType === 3)
              .map((node) => node.textContent)
              .join(' '),
          ).slice(0, TEXT_CAP);
          area = {
            id: found.length,
            parentId: parentAreaId,
            x: round(rect.left),
            y: round(rect.top),
            width: round(rect.width),
            height: round(rect.height),
            selector,
            xpath,
            textContent: ownText,
            hasText: ownText.length > 0,
            containsHref: false,
            tagName: tag,
          };
          found.push(area);
        }
        const hasHref = (tag === 'a' || tag === 'area') && child.hasAttribute('href');
        const descendantsHaveHref = visitChildren(child, area ? area.id : parentAreaId, selector, xpath);
        if (area) area.containsHref = hasHref || descendantsHaveHref;
        subtreeHasHref = subtreeHasHref || hasHref || descendantsHaveHref;
      }
      return subtreeHasHref;
    };
    visitChildren(document, null, '', '');
    return found;
  };

  const normalizedHtml = (maxLength: number): string => {
    const clone = document.documentElement.cloneNode(true) as Element;
    for (const el of clone.querySelectorAll('script, style, noscript, link[rel~="stylesheet"]')) el.remove();
    const walker = document.createTreeWalker(clone, NodeFilter.SHOW_COMMENT);
    const comments: Node[] = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    for (const comment of comments) comment.parentNode?.removeChild(comment);
    for (const el of [clone, ...clone.querySelectorAll('*')]) {
      for (const attribute of Array.from(el.attributes)) {
        const isHandler = attribute.name.toLowerCase().startsWith('on');
        const isScriptUrl = /^\s*javascript:/i.test(attribute.value);
        if (isHandler || isScriptUrl) el.removeAttribute(attribute.name);
      }
    }
    const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>\n` : '';
    return (doctype + clone.outerHTML).slice(0, maxLength);
  };

  if (request.mode === 'point') return JSON.stringify(atPoint(request.x, request.y));
  if (request.mode === 'areas') return JSON.stringify(areas());
  return normalizedHtml(request.maxLength);
}

const PROBE_SOURCE = pageProbe.toString();

/**
 * Runs the probe in one frame. The source is sent as an expression with a `__name` shim because
 * some TypeScript runners (esbuild keepNames, used by tsx) wrap functions in a `__name` helper that
 * does not exist in the page.
 */
export async function runPageProbe(target: Page | Frame, request: ProbeRequest): Promise<string> {
  const expression = `(() => { const __name = (f) => f; return (${PROBE_SOURCE})(${JSON.stringify(request)}); })()`;
  const answer: unknown = await target.evaluate(expression);
  if (typeof answer !== 'string') throw new TypeError('page probe returned no string');
  return answer;
}
