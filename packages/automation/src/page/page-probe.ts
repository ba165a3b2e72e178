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
  | { mode: 'point'; x: number; y: number }
  | { mode: 'areas' }
  | { mode: 'html'; maxLength: number }
  /** The selector and XPath the builder would record for the element carrying `attribute`. */
  | { mode: 'marked'; attribute: string };

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
  const SVG = 'http://www.w3.org/2000/svg';
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
  const LABELABLE_TAGS = ['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress'];
  const ROLE_CANDIDATES = 'a[href], button, input, textarea, select, [role]';
  const SKIPPED_TAGS = ['script', 'style', 'noscript', 'template', 'head'];
  const DOWNLOAD_PATH = /\.(pdf|csv|xlsx?|docx?|zip|txt|json|xml|ofx|qfx|qif)$/i;

  // The page's names can shadow the DOM's: a form's controls are its properties by name
  // (`form.id` is <input name="id">, `form.children` is <input name="children">) and named images
  // and forms are properties of the document. So the probe reads nodes only through the
  // prototypes' own getters and methods, captured here before it reads anything. Each getter has
  // a wrapper of its own: one shared wrapper would make its call site megamorphic, and slow.
  const getter = (prototype: object, name: string): ((this: Node) => unknown) => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called on a node with .call
    const read = Object.getOwnPropertyDescriptor(prototype, name)?.get;
    if (!read) throw new TypeError(`page probe: no ${name} getter`);
    return read;
  };
  const get = {
    nodeType: getter(Node.prototype, 'nodeType'),
    parentNode: getter(Node.prototype, 'parentNode'),
    childNodes: getter(Node.prototype, 'childNodes'),
    textContent: getter(Node.prototype, 'textContent'),
    ownerDocument: getter(Node.prototype, 'ownerDocument'),
    baseURI: getter(Node.prototype, 'baseURI'),
    localName: getter(Element.prototype, 'localName'),
    namespaceURI: getter(Element.prototype, 'namespaceURI'),
    shadowRoot: getter(Element.prototype, 'shadowRoot'),
    attributes: getter(Element.prototype, 'attributes'),
    outerHTML: getter(Element.prototype, 'outerHTML'),
    elementChildren: getter(Element.prototype, 'children'),
    documentChildren: getter(Document.prototype, 'children'),
    fragmentChildren: getter(DocumentFragment.prototype, 'children'),
    host: getter(ShadowRoot.prototype, 'host'),
    defaultView: getter(Document.prototype, 'defaultView'),
    documentElement: getter(Document.prototype, 'documentElement'),
    doctype: getter(Document.prototype, 'doctype'),
    isContentEditable: getter(HTMLElement.prototype, 'isContentEditable'),
    htmlOnclick: getter(HTMLElement.prototype, 'onclick'),
    svgOnclick: getter(SVGElement.prototype, 'onclick'),
  };
  const nodeTypeOf = (node: Node): number => get.nodeType.call(node) as number;
  const parentNodeOf = (node: Node): Node | null => get.parentNode.call(node) as Node | null;
  const childNodesOf = (node: Node): NodeListOf<ChildNode> =>
    get.childNodes.call(node) as NodeListOf<ChildNode>;
  const textOf = (node: Node): string | null => get.textContent.call(node) as string | null;
  const ownerDocumentOf = (node: Node): Document => get.ownerDocument.call(node) as Document;
  const baseUriOf = (node: Node): string => get.baseURI.call(node) as string;
  const localNameOf = (el: Element): string => get.localName.call(el) as string;
  const namespaceOf = (el: Element): string | null => get.namespaceURI.call(el) as string | null;
  const shadowRootOf = (el: Element): ShadowRoot | null => get.shadowRoot.call(el) as ShadowRoot | null;
  const attributesOf = (el: Element): NamedNodeMap => get.attributes.call(el) as NamedNodeMap;
  const outerHtmlOf = (el: Element): string => get.outerHTML.call(el) as string;
  const hostOf = (root: ShadowRoot): Element => get.host.call(root) as Element;
  const defaultViewOf = (doc: Document): Window | null => get.defaultView.call(doc) as Window | null;
  const documentElementOf = (doc: Document): Element | null =>
    get.documentElement.call(doc) as Element | null;
  const doctypeOf = (doc: Document): DocumentType | null => get.doctype.call(doc) as DocumentType | null;
  const isContentEditableOf = (el: Element): boolean => get.isContentEditable.call(el) as boolean;
  const htmlOnclickOf = (el: Element): unknown => get.htmlOnclick.call(el);
  const svgOnclickOf = (el: Element): unknown => get.svgOnclick.call(el);
  /* eslint-disable @typescript-eslint/unbound-method -- the prototypes' own methods, each called on a
     node with .call */
  const { getRootNode, cloneNode, removeChild } = Node.prototype;
  const { getAttribute, hasAttribute, removeAttribute, remove, closest, getBoundingClientRect } =
    Element.prototype;
  const getAttr = (el: Element, name: string): string | null => getAttribute.call(el, name);
  const hasAttr = (el: Element, name: string): boolean => hasAttribute.call(el, name);
  const closestOf = (el: Element, selector: string): Element | null => closest.call(el, selector);
  const boxOf = (el: Element): DOMRect => getBoundingClientRect.call(el);
  const { createTreeWalker } = Document.prototype;
  const documentElementFromPoint = Document.prototype.elementFromPoint;
  const shadowElementFromPoint = ShadowRoot.prototype.elementFromPoint;
  // children, querySelectorAll and getElementById live on each ParentNode kind's prototype.
  const queryAllBy = new Map<number, (selectors: string) => NodeListOf<Element>>([
    [1, Element.prototype.querySelectorAll],
    [9, Document.prototype.querySelectorAll],
    [11, DocumentFragment.prototype.querySelectorAll],
  ]);
  const byIdBy = new Map<number, (id: string) => Element | null>([
    [9, Document.prototype.getElementById],
    [11, DocumentFragment.prototype.getElementById],
  ]);
  /* eslint-enable @typescript-eslint/unbound-method */
  const queryAll = (root: Node, selector: string): Element[] => {
    const query = queryAllBy.get(nodeTypeOf(root));
    return query ? Array.from(query.call(root, selector)) : [];
  };
  const elementById = (root: Node, id: string): Element | null => {
    const byId = byIdBy.get(nodeTypeOf(root));
    return byId ? byId.call(root, id) : null;
  };

  const normalize = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();
  const round = (value: number): number => Math.round(value * 100) / 100;
  const cssString = (value: string): string =>
    '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const isShadowRoot = (node: Node): node is ShadowRoot => nodeTypeOf(node) === 11 && 'host' in node;
  const inputType = (el: Element): string => (getAttr(el, 'type') ?? '').toLowerCase();
  const elementChildrenOf = (parent: Node): Element[] => {
    const type = nodeTypeOf(parent);
    const children =
      type === 1
        ? get.elementChildren.call(parent)
        : type === 9
          ? get.documentChildren.call(parent)
          : type === 11
            ? get.fragmentChildren.call(parent)
            : null;
    return children ? Array.from(children as HTMLCollection) : [];
  };
  const typeKeyOf = (el: Element): string => `${namespaceOf(el)} ${localNameOf(el)}`;

  /** What Playwright's css engine sees: the tree below `root` plus every open shadow root in it. */
  const deepQueryAll = (root: Document | ShadowRoot | Element, selector: string): Element[] => {
    const found: Element[] = [];
    const visit = (node: Node): void => {
      for (const el of queryAll(node, selector)) found.push(el);
      for (const el of queryAll(node, '*')) {
        const shadow = shadowRootOf(el);
        if (shadow) visit(shadow);
      }
    };
    visit(root);
    const rootShadow = nodeTypeOf(root) === 1 ? shadowRootOf(root as Element) : null;
    if (rootShadow) visit(rootShadow);
    return found;
  };
  const deepCount = (root: Document | ShadowRoot | Element, selector: string): number =>
    deepQueryAll(root, selector).length;

  const styleOf = (el: Element): CSSStyleDeclaration | null =>
    defaultViewOf(ownerDocumentOf(el))?.getComputedStyle(el) ?? null;
  const isVisible = (el: Element): boolean => {
    const rect = boxOf(el);
    if (rect.width <= 0 || rect.height <= 0) return false;
    const style = styleOf(el);
    return !style || (style.visibility !== 'hidden' && style.visibility !== 'collapse');
  };
  const hasClickHandler = (el: Element): boolean => {
    const namespace = namespaceOf(el);
    const handler = namespace === XHTML ? htmlOnclickOf(el) : namespace === SVG ? svgOnclickOf(el) : null;
    return typeof handler === 'function';
  };

  const classify = (el: Element): ElementType => {
    const tag = localNameOf(el);
    if (tag === 'input') {
      const type = inputType(el);
      if (type === 'password') return 'INPUTABLE_PASSWORD';
      if (TEXT_INPUT_TYPES.includes(type)) return 'INPUTABLE_TEXT';
      return type === 'hidden' ? 'OTHER' : 'CLICKABLE';
    }
    if (tag === 'textarea' || (namespaceOf(el) === XHTML && isContentEditableOf(el))) return 'INPUTABLE_TEXT';
    if (tag === 'select') return 'SELECT';
    if (tag === 'a' || tag === 'button' || tag === 'summary') return 'CLICKABLE';
    if (CLICKABLE_ROLES.includes((getAttr(el, 'role') ?? '').toLowerCase())) return 'CLICKABLE';
    if (hasAttr(el, 'onclick') || hasClickHandler(el)) return 'CLICKABLE';
    return styleOf(el)?.cursor === 'pointer' ? 'CLICKABLE' : 'OTHER';
  };

  // One way to describe an element, shared by the element areas and element-at-point, so the
  // outlined element and the picked one always carry the same selector. An element's selector is
  // "#id" when its id is unique in its document (shadow roots included, as Playwright's css engine
  // sees them), else `tag[name="…"]` for a form control whose name is unique there, else its
  // parent's selector, " > " and its tag (with :nth-of-type when the tag
  // repeats among its siblings). The parent of an element heading an open shadow root is the
  // host: Playwright's css engine lets ">" step from a shadow root's child to its host.
  const positions = new Map<Node, Map<Element, { index: number; total: number }>>();
  const positionOf = (el: Element): { index: number; total: number } => {
    const parent = parentNodeOf(el);
    if (!parent) return { index: 1, total: 1 };
    let known = positions.get(parent);
    if (!known) {
      const siblings = new Map<Element, { index: number; total: number }>();
      const counts = new Map<string, number>();
      for (const sibling of elementChildrenOf(parent)) {
        const key = typeKeyOf(sibling);
        const index = (counts.get(key) ?? 0) + 1;
        counts.set(key, index);
        siblings.set(sibling, { index, total: 0 });
      }
      for (const [sibling, position] of siblings) position.total = counts.get(typeKeyOf(sibling)) ?? 1;
      positions.set(parent, siblings);
      known = siblings;
    }
    return known.get(el) ?? { index: 1, total: 1 };
  };
  const idCountsByDocument = new Map<Document, Map<string, number>>();
  const isUniqueId = (el: Element, id: string): boolean => {
    const doc = ownerDocumentOf(el);
    let counts = idCountsByDocument.get(doc);
    if (!counts) {
      counts = new Map<string, number>();
      for (const withId of deepQueryAll(doc, '[id]')) {
        const value = getAttr(withId, 'id') ?? '';
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      idCountsByDocument.set(doc, counts);
    }
    return counts.get(id) === 1;
  };
  // Form controls are known by their name when no other control of the document has it: server
  // rendered admin tools (Adminer, phpMyAdmin, wikis) name every field and give few ids, and a
  // position in a layout table breaks as soon as a row is added.
  const NAMED_TAGS = ['input', 'select', 'textarea', 'button'];
  const nameCountsByDocument = new Map<Document, Map<string, number>>();
  const uniqueNameSelector = (el: Element, tag: string): string | null => {
    const name = NAMED_TAGS.includes(tag) ? getAttr(el, 'name') : null;
    if (!name) return null;
    const doc = ownerDocumentOf(el);
    let counts = nameCountsByDocument.get(doc);
    if (!counts) {
      counts = new Map<string, number>();
      for (const named of deepQueryAll(doc, '[name]')) {
        const key = `${localNameOf(named)} ${getAttr(named, 'name') ?? ''}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      nameCountsByDocument.set(doc, counts);
    }
    if (counts.get(`${tag} ${name}`) !== 1) return null;
    return `${tag}[name="${name.replace(/["\\]/g, '\\$&')}"]`;
  };
  const selectors = new Map<Element, string>();
  const selectorOf = (el: Element): string => {
    const known = selectors.get(el);
    if (known !== undefined) return known;
    const id = getAttr(el, 'id');
    const named = uniqueNameSelector(el, localNameOf(el));
    let selector: string;
    if (id && isUniqueId(el, id)) {
      selector = '#' + CSS.escape(id);
    } else if (named) {
      selector = named;
    } else {
      const tag = CSS.escape(localNameOf(el));
      const { index, total } = positionOf(el);
      const segment = total > 1 ? `${tag}:nth-of-type(${index})` : tag;
      const parent = parentNodeOf(el);
      const parentElement = !parent
        ? null
        : nodeTypeOf(parent) === 1
          ? (parent as Element)
          : isShadowRoot(parent)
            ? hostOf(parent)
            : null;
      selector = parentElement ? `${selectorOf(parentElement)} > ${segment}` : segment;
    }
    selectors.set(el, selector);
    return selector;
  };
  /** Absolute XPath within the element's document; null inside shadow DOM (XPath cannot pierce it). */
  const xpaths = new Map<Element, string | null>();
  const xpathOf = (el: Element): string | null => {
    const known = xpaths.get(el);
    if (known !== undefined) return known;
    const parent = parentNodeOf(el);
    let xpath: string | null = null;
    if (parent && (nodeTypeOf(parent) === 1 || nodeTypeOf(parent) === 9)) {
      const parentXpath = nodeTypeOf(parent) === 1 ? xpathOf(parent as Element) : '';
      if (parentXpath !== null) {
        const tag = localNameOf(el);
        const step = namespaceOf(el) === XHTML ? tag : `*[name()="${tag}"]`;
        const { index, total } = positionOf(el);
        xpath = `${parentXpath}/${step}${total > 1 ? `[${index}]` : ''}`;
      }
    }
    xpaths.set(el, xpath);
    return xpath;
  };

  const labelTexts = (el: Element): string[] => {
    if (namespaceOf(el) !== XHTML || !LABELABLE_TAGS.includes(localNameOf(el))) return [];
    const labels = (el as HTMLInputElement).labels;
    return labels ? Array.from(labels, (label) => normalize(textOf(label))).filter(Boolean) : [];
  };

  const roleOf = (el: Element): string | null => {
    const explicit = (getAttr(el, 'role') ?? '').trim().toLowerCase().split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = localNameOf(el);
    if (tag === 'a') return hasAttr(el, 'href') ? 'link' : null;
    if (tag === 'button') return 'button';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') {
      return hasAttr(el, 'multiple') || Number(getAttr(el, 'size')) > 1 ? 'listbox' : 'combobox';
    }
    if (tag !== 'input') return null;
    const type = inputType(el);
    if (['', 'text', 'email', 'tel', 'url', 'search'].includes(type)) {
      if (getAttr(el, 'list')) return 'combobox';
      return type === 'search' ? 'searchbox' : 'textbox';
    }
    if (type === 'hidden') return null;
    return IMPLICIT_INPUT_ROLES[type] ?? 'textbox';
  };

  const accessibleName = (el: Element): string => {
    const labelledBy = normalize(getAttr(el, 'aria-labelledby'));
    if (labelledBy) {
      const root = getRootNode.call(el);
      const text = normalize(
        labelledBy
          .split(' ')
          .map((id) => {
            const labelling = elementById(root, id);
            return labelling ? (textOf(labelling) ?? '') : '';
          })
          .join(' '),
      );
      if (text) return text;
    }
    const ariaLabel = normalize(getAttr(el, 'aria-label'));
    if (ariaLabel) return ariaLabel;
    const tag = localNameOf(el);
    if (tag === 'input') {
      const type = inputType(el);
      if (type === 'submit' || type === 'reset' || type === 'button') {
        const value = normalize(getAttr(el, 'value'));
        if (value || type === 'button') return value;
        return type === 'submit' ? 'Submit' : 'Reset';
      }
      if (type === 'image') return normalize(getAttr(el, 'alt'));
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const labels = labelTexts(el);
      if (labels.length > 0) return labels.join(' ');
      return normalize(getAttr(el, 'title')) || normalize(getAttr(el, 'placeholder'));
    }
    return normalize(textOf(el)) || normalize(getAttr(el, 'title'));
  };

  const fallbacksFor = (el: Element, selector: string, xpath: string | null): FallbackLocator[] => {
    const doc = ownerDocumentOf(el);
    const tag = localNameOf(el);
    const fallbacks: FallbackLocator[] = [];

    const testId = getAttr(el, 'data-testid') ?? getAttr(el, 'data-test') ?? getAttr(el, 'data-qa');
    if (testId) {
      const quoted = cssString(testId);
      if (deepCount(doc, `[data-testid=${quoted}],[data-test=${quoted}],[data-qa=${quoted}]`) === 1) {
        fallbacks.push({ kind: 'testId', value: testId });
      }
    }

    const id = getAttr(el, 'id');
    if (id && deepCount(doc, `[id=${cssString(id)}]`) === 1) fallbacks.push({ kind: 'id', value: id });

    const role = roleOf(el);
    const name = accessibleName(el);
    if (role && FALLBACK_ROLES.includes(role) && name) {
      const sameRoleAndName = deepQueryAll(doc, ROLE_CANDIDATES).filter(
        (candidate) =>
          roleOf(candidate) === role && isVisible(candidate) && accessibleName(candidate) === name,
      );
      if (sameRoleAndName.length === 1) fallbacks.push({ kind: 'role', role, name });
    }

    const label = labelTexts(el)[0] ?? normalize(getAttr(el, 'aria-label'));
    if (label) {
      const sameLabel = deepQueryAll(
        doc,
        'input, select, textarea, button, meter, output, progress, [aria-label]',
      ).filter(
        (candidate) =>
          labelTexts(candidate).includes(label) || normalize(getAttr(candidate, 'aria-label')) === label,
      );
      if (sameLabel.length === 1) fallbacks.push({ kind: 'label', value: label });
    }

    const text = normalize(textOf(el));
    if (classify(el) === 'CLICKABLE' && text && text.length <= FALLBACK_TEXT_MAX) {
      const sameText = deepQueryAll(doc, CSS.escape(tag)).filter(
        (candidate) => normalize(textOf(candidate)) === text,
      );
      if (sameText.length === 1) fallbacks.push({ kind: 'text', value: text, tagName: tag });
    }

    const attributes: Record<string, string> = {};
    const stable = ['name', 'type', 'placeholder', 'href', 'title', 'alt'];
    if (tag === 'button' || (tag === 'input' && ['button', 'submit', 'reset'].includes(inputType(el)))) {
      stable.push('value');
    }
    for (const attribute of stable) {
      const value = getAttr(el, attribute);
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
    const link = closestOf(el, 'a[href]');
    if (!link) return false;
    if (hasAttr(link, 'download')) return true;
    try {
      return DOWNLOAD_PATH.test(
        new URL(getAttr(link, 'href') ?? '', baseUriOf(ownerDocumentOf(el))).pathname,
      );
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
      el = documentElementFromPoint.call(doc, x - offsetX, y - offsetY);
      if (!el) return { kind: 'none' };
      for (let shadow = shadowRootOf(el); shadow; shadow = shadowRootOf(el)) {
        const inner: Element | null = shadowElementFromPoint.call(shadow, x - offsetX, y - offsetY);
        if (!inner || inner === el) break;
        el = inner;
      }
      const tag = localNameOf(el);
      if (tag !== 'iframe' && tag !== 'frame') break;
      const frameElement = el as HTMLIFrameElement;
      const rect = boxOf(frameElement);
      const style = styleOf(frameElement);
      const contentX = rect.left + frameElement.clientLeft + parseFloat(style?.paddingLeft ?? '0');
      const contentY = rect.top + frameElement.clientTop + parseFloat(style?.paddingTop ?? '0');
      framePath.push(selectorOf(frameElement));
      // contentDocument is null for a cross-origin frame.
      const childDoc = frameElement.contentDocument;
      if (!childDoc || !documentElementOf(childDoc)) {
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
    // Recorders act on what a user means to click: text inside a button or link is the button or
    // link, and so is an icon (svg > path, <i>, <img>) inside one, although it inherits the
    // button's pointer cursor. Only a control of its own (a field, a link, a role, an onclick)
    // stays itself.
    const deepest: Element = el;
    let element = deepest;
    const deepestTag = localNameOf(deepest);
    const isOwnControl =
      ['a', 'button', 'input', 'select', 'textarea', 'summary'].includes(deepestTag) ||
      CLICKABLE_ROLES.includes((getAttr(deepest, 'role') ?? '').toLowerCase()) ||
      hasAttr(deepest, 'onclick') ||
      (namespaceOf(deepest) === XHTML && isContentEditableOf(deepest));
    if (!isOwnControl) {
      element =
        closestOf(
          deepest,
          'a[href], button, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="checkbox"], [role="option"], [role="switch"], summary',
        ) ?? deepest;
    }
    const selector = selectorOf(element);
    const xpath = xpathOf(element);
    const rect = boxOf(element);
    const tagName = localNameOf(element);
    return {
      kind: 'element',
      element: {
        type: classify(element),
        tagName,
        textContent: normalize(textOf(element)).slice(0, TEXT_CAP),
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
        ...(tagName === 'select' && namespaceOf(element) === XHTML
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
    const found: ProbedArea[] = [];
    // Returns whether the subtree holds a link, so containsHref costs one pass.
    const visitChildren = (parent: Node, parentAreaId: number | null): boolean => {
      let subtreeHasHref = false;
      for (const child of elementChildrenOf(parent)) {
        const tag = localNameOf(child);
        if (SKIPPED_TAGS.includes(tag)) continue;
        let area: ProbedArea | null = null;
        if (isVisible(child)) {
          const rect = boxOf(child);
          const ownText = normalize(
            Array.from(childNodesOf(child))
              .filter((node) => nodeTypeOf(node) === 3)
              .map((node) => textOf(node))
              .join(' '),
          ).slice(0, TEXT_CAP);
          area = {
            id: found.length,
            parentId: parentAreaId,
            x: round(rect.left),
            y: round(rect.top),
            width: round(rect.width),
            height: round(rect.height),
            selector: selectorOf(child),
            xpath: xpathOf(child) ?? '',
            textContent: ownText,
            hasText: ownText.length > 0,
            containsHref: false,
            tagName: tag,
          };
          found.push(area);
        }
        const areaId = area ? area.id : parentAreaId;
        const hasHref = (tag === 'a' || tag === 'area') && hasAttr(child, 'href');
        // An open shadow root is what the host shows; a closed one stays out of reach.
        const shadow = shadowRootOf(child);
        const shadowHasHref = shadow ? visitChildren(shadow, areaId) : false;
        const descendantsHaveHref = visitChildren(child, areaId) || shadowHasHref;
        if (area) area.containsHref = hasHref || descendantsHaveHref;
        subtreeHasHref = subtreeHasHref || hasHref || descendantsHaveHref;
      }
      return subtreeHasHref;
    };
    visitChildren(document, null);
    return found;
  };

  const normalizedHtml = (maxLength: number): string => {
    const root = documentElementOf(document);
    if (!root) return '';
    const clone = cloneNode.call(root, true) as Element;
    for (const el of queryAll(clone, 'script, style, noscript, link[rel~="stylesheet"]')) remove.call(el);
    const walker = createTreeWalker.call(document, clone, NodeFilter.SHOW_COMMENT);
    const comments: Node[] = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    for (const comment of comments) {
      const parent = parentNodeOf(comment);
      if (parent) removeChild.call(parent, comment);
    }
    for (const el of [clone, ...queryAll(clone, '*')]) {
      for (const attribute of Array.from(attributesOf(el))) {
        const isHandler = attribute.name.toLowerCase().startsWith('on');
        const isScriptUrl = /^\s*javascript:/i.test(attribute.value);
        if (isHandler || isScriptUrl) removeAttribute.call(el, attribute.name);
      }
    }
    const doctype = doctypeOf(document);
    return ((doctype ? `<!DOCTYPE ${doctype.name}>\n` : '') + outerHtmlOf(clone)).slice(0, maxLength);
  };

  if (request.mode === 'point') return JSON.stringify(atPoint(request.x, request.y));
  if (request.mode === 'areas') return JSON.stringify(areas());
  if (request.mode === 'marked') {
    const [marked] = deepQueryAll(document, `[${request.attribute}]`);
    return JSON.stringify(marked ? { selector: selectorOf(marked), xpath: xpathOf(marked) } : null);
  }
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
