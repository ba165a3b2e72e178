/**
 * Whether a statement is the kind of document its template was drawn on. A template read over
 * another layout still "reads" every box (the text that happens to sit there), so the file is
 * checked against the sample: page count and size, the anchor labels, and whether the boxes read
 * text shaped like the sample's.
 */

import type { BoxProblem, PageSize, TemplateMismatch } from '@pagewright/shared';

/** A page whose sides differ from the sample's by more than this share is another format. */
const SIZE_TOLERANCE = 0.03;

/**
 * Sizes in points when both are known; when the sample's is only known as a picture (templates
 * made before sizes were kept), the sides' ratio.
 */
export function isSameSize(size: PageSize, sample: PageSize, sampleIsPixels: boolean): boolean {
  if (sampleIsPixels) {
    const ratio = size.width / size.height;
    const sampleRatio = sample.width / sample.height;
    return Math.abs(ratio - sampleRatio) <= sampleRatio * SIZE_TOLERANCE;
  }
  return (
    Math.abs(size.width - sample.width) <= sample.width * SIZE_TOLERANCE &&
    Math.abs(size.height - sample.height) <= sample.height * SIZE_TOLERANCE
  );
}

/** A value's shape: letters, digits, spaces and other marks in runs ("12,345.67" → "9,9.9"). */
function shapeOf(text: string): string {
  return text
    .trim()
    .replace(/\p{N}+/gu, '9')
    .replace(/\p{L}+/gu, 'a')
    .replace(/\s+/gu, ' ');
}

function digitShare(text: string): number {
  const visible = text.replace(/\s/gu, '');
  return visible.length === 0 ? 0 : (visible.match(/\p{N}/gu)?.length ?? 0) / visible.length;
}

/**
 * Whether a value read looks like what the sample held in the same box: the same shape of letter
 * and digit runs, or text of a like kind (about as many digits, within four times the length). A box
 * whose sample was empty says nothing either way (true).
 */
export function looksLikeSample(value: string, sample: string): boolean {
  const expected = sample.trim();
  const read = value.trim();
  if (expected === '') return true;
  if (read === '') return false;
  if (shapeOf(read) === shapeOf(expected)) return true;
  const lengthRatio = read.length / expected.length;
  return Math.abs(digitShare(read) - digitShare(expected)) < 0.35 && lengthRatio <= 4 && lengthRatio >= 1 / 4;
}

/** Of the boxes that could be checked, the share whose failing marks the file. */
const FAILING_SHARE = 0.5;

export interface CheckedBox {
  label: string;
  /** The box has an anchor label that was on the sample. */
  hasAnchor: boolean;
  /** The box's value was compared with the sample's. */
  isCompared: boolean;
  problem: BoxProblem | null;
}

/** The file-wide verdicts the boxes give: half the anchors lost, or half the values unlike. */
export function boxMismatches(boxes: readonly CheckedBox[]): TemplateMismatch[] {
  const mismatches: TemplateMismatch[] = [];
  const anchored = boxes.filter((box) => box.hasAnchor);
  const lost = anchored.filter((box) => box.problem === 'anchor-missing');
  if (lost.length > 0 && lost.length >= anchored.length * FAILING_SHARE)
    mismatches.push({ kind: 'anchors-missing', labels: lost.map((box) => box.label) });
  const compared = boxes.filter((box) => box.isCompared);
  const unlike = compared.filter((box) => box.problem === 'unlike-sample');
  // Most of at least two: one name much longer than the sample's is not a different document.
  if (compared.length >= 2 && unlike.length > compared.length * FAILING_SHARE)
    mismatches.push({ kind: 'unlike-sample', labels: unlike.map((box) => box.label) });
  return mismatches;
}
