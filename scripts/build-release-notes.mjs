#!/usr/bin/env node
// Renders docs/release-notes/<part>.md to apps/web/public/help/<part>-release-notes.pdf, the PDFs
// listed on the Help page. Runs before the web build (apps/web's build script); the output folder
// is generated, so it is created here and ignored by git.
//
// The Markdown is the small subset the notes use: # / ## / ### headings, paragraphs, "- " and
// "1. " lists (nested by two spaces), and **bold**, *italic* and `code` inside a line.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdfkit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'docs/release-notes');
const outputDir = path.join(root, 'apps/web/public/help');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', code: 'Courier' };
const COLOR = { text: '#1f2328', muted: '#57606a', accent: '#e8710a' };
const MARGIN = 64;
const BODY_SIZE = 10.5;
const LIST_INDENT = 16;

// The standard PDF fonts only cover Windows-1252: spell out the few characters outside it.
const REPLACEMENTS = { '≥': '>=', '≤': '<=', '→': '->', '←': '<-', '✓': 'v', '×': 'x', '\u00a0': ' ' };

function plain(text) {
  return text.replace(/[≥≤→←✓×\u00a0]/g, (char) => REPLACEMENTS[char]);
}

// ---------------------------------------------------------------------------------------------
// Markdown → blocks

function parseMarkdown(markdown) {
  const blocks = [];
  let paragraph = [];
  let item = null;

  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', text: paragraph.join(' ') });
    if (item) blocks.push(item);
    paragraph = [];
    item = null;
  };

  for (const rawLine of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.replace(/\s+$/, '');
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const listItem = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1].length, text: heading[2].trim() });
    } else if (listItem) {
      flush();
      item = {
        type: 'item',
        level: Math.min(Math.floor(listItem[1].length / 2), 3),
        marker: /\d/.test(listItem[2]) ? listItem[2].replace(')', '.') : '•',
        text: listItem[3].trim(),
      };
    } else if (item) {
      item.text += ` ${line.trim()}`;
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

// "**bold** and `code`" → [{ text, font }]
function parseInline(text) {
  const runs = [];
  // No _italic_: action names such as TYPE_TEXT are full of underscores.
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) runs.push({ text: text.slice(last, match.index), font: FONT.regular });
    const token = match[0];
    if (token.startsWith('**')) runs.push({ text: token.slice(2, -2), font: FONT.bold });
    else if (token.startsWith('`')) runs.push({ text: token.slice(1, -1), font: FONT.code });
    else runs.push({ text: token.slice(1, -1), font: FONT.italic });
    last = match.index + token.length;
  }
  if (last < text.length) runs.push({ text: text.slice(last), font: FONT.regular });
  return runs.map((run) => ({ ...run, text: plain(run.text) }));
}

// ---------------------------------------------------------------------------------------------
// Blocks → PDF

function writeRuns(doc, runs, x, width, size) {
  doc.fillColor(COLOR.text).fontSize(size);
  runs.forEach((run, index) => {
    const options = { width, lineGap: 2.5, continued: index < runs.length - 1 };
    doc.font(run.font);
    if (index === 0) doc.text(run.text, x, doc.y, options);
    else doc.text(run.text, options);
  });
}

// Keeps a heading on the same page as at least a few lines of what follows it.
function ensureRoom(doc, height) {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

function renderTitlePage(doc, title) {
  const width = doc.page.width - 2 * MARGIN;
  doc.rect(0, 0, doc.page.width, 12).fill(COLOR.accent);
  doc.y = doc.page.height * 0.32;
  doc
    .font(FONT.bold)
    .fontSize(30)
    .fillColor(COLOR.text)
    .text(`Pagewright ${version}`, MARGIN, doc.y, { width });
  doc.moveDown(0.4);
  doc.font(FONT.regular).fontSize(20).fillColor(COLOR.accent).text(plain(title), { width });
  doc.moveDown(0.3);
  doc.font(FONT.regular).fontSize(14).fillColor(COLOR.muted).text('Release notes', { width });
}

function renderBlocks(doc, blocks) {
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  for (const block of blocks) {
    if (block.type === 'heading') {
      const size = { 1: 20, 2: 14.5, 3: 12 }[block.level];
      ensureRoom(doc, size * 2 + BODY_SIZE * 4);
      doc.moveDown(block.level === 1 ? 0.2 : 0.6);
      doc
        .font(FONT.bold)
        .fontSize(size)
        .fillColor(block.level === 1 ? COLOR.accent : COLOR.text);
      doc.text(plain(block.text), left, doc.y, { width });
      if (block.level <= 2) {
        const y = doc.y + 2;
        doc
          .moveTo(left, y)
          .lineTo(left + width, y)
          .lineWidth(0.6)
          .strokeColor('#d0d7de')
          .stroke();
        doc.y = y + 6;
      } else {
        doc.moveDown(0.2);
      }
    } else if (block.type === 'paragraph') {
      writeRuns(doc, parseInline(block.text), left, width, BODY_SIZE);
      doc.moveDown(0.6);
    } else {
      const indent = left + block.level * LIST_INDENT;
      ensureRoom(doc, BODY_SIZE * 2);
      const y = doc.y;
      doc.font(FONT.regular).fontSize(BODY_SIZE).fillColor(COLOR.accent);
      doc.text(block.marker, indent, y, { width: LIST_INDENT, lineBreak: false });
      doc.y = y;
      writeRuns(
        doc,
        parseInline(block.text),
        indent + LIST_INDENT,
        width - (indent - left) - LIST_INDENT,
        BODY_SIZE,
      );
      doc.moveDown(0.35);
    }
  }
}

function renderFooters(doc, title) {
  const range = doc.bufferedPageRange();
  const width = doc.page.width - 2 * MARGIN;
  // The title page (index 0) has no footer; content pages are numbered from 1.
  for (let index = range.start + 1; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const y = doc.page.height - MARGIN / 2 - 6;
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing below the bottom margin must not start a new page
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOR.muted);
    doc.text(`Pagewright ${version} · ${plain(title)} release notes`, MARGIN, y, { width, lineBreak: false });
    doc.text(`Page ${index} of ${range.count - 1}`, MARGIN, y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
}

function renderPdf(markdown) {
  const blocks = parseMarkdown(markdown);
  const titleIndex = blocks.findIndex((block) => block.type === 'heading' && block.level === 1);
  if (titleIndex === -1) throw new Error('release notes need a "# Title" line');
  const title = blocks[titleIndex].text;
  const body = blocks.filter((_, index) => index !== titleIndex);

  // A fixed date keeps the output identical for identical notes (SOURCE_DATE_EPOCH overrides).
  const date = new Date(Number(process.env.SOURCE_DATE_EPOCH ?? 0) * 1000 || Date.UTC(2026, 0, 1));
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Pagewright ${version} - ${title} release notes`,
      Author: 'Pagewright',
      Subject: `${title} release notes`,
      CreationDate: date,
      ModDate: date,
    },
  });
  const chunks = [];
  doc.on('data', (chunk) => chunks.push(chunk));
  const finished = new Promise((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  renderTitlePage(doc, title);
  doc.addPage();
  renderBlocks(doc, body);
  renderFooters(doc, title);
  doc.end();
  return finished;
}

async function main() {
  const sources = readdirSync(sourceDir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  if (sources.length === 0) throw new Error(`no release notes in ${sourceDir}`);
  mkdirSync(outputDir, { recursive: true });
  for (const source of sources) {
    const pdf = await renderPdf(readFileSync(path.join(sourceDir, source), 'utf8'));
    const target = path.join(outputDir, `${path.basename(source, '.md')}-release-notes.pdf`);
    writeFileSync(target, pdf);
    process.stdout.write(`release notes: ${path.relative(root, target)} (${pdf.length} bytes)\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`build-release-notes: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
