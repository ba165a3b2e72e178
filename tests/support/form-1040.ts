import { readFileSync } from 'node:fs';
import { PDFAcroTerminal, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName } from 'pdf-lib';

/**
 * The real IRS Form 1040 (2019) of tests/fixtures/pdfs filled as a PDF viewer fills it: values in
 * the AcroForm text fields (/V), boxes ticked (/V and the widget's /AS), the XFA part kept (pdf-lib's
 * form API would delete it, so the field dictionaries are written directly) and NeedAppearances
 * set so viewers draw the values.
 */
export const BLANK_1040 = new URL('../fixtures/pdfs/irs-1040-2019-blank.pdf', import.meta.url);

export async function filled1040(
  texts: readonly { field: string; value: string }[],
  ticked: readonly string[] = [],
): Promise<Uint8Array> {
  const document = await PDFDocument.load(readFileSync(BLANK_1040));
  const acroForm = document.catalog.getAcroForm();
  if (!acroForm) throw new Error('the blank form has no AcroForm');
  const fields = new Map(acroForm.getAllFields().map(([field]) => [field.getFullyQualifiedName(), field]));
  const fieldNamed = (name: string) => {
    const field = fields.get(name);
    if (!field) throw new Error(`no field ${name}`);
    return field;
  };
  for (const { field, value } of texts)
    fieldNamed(field).dict.set(PDFName.of('V'), PDFHexString.fromText(value));
  for (const name of ticked) {
    const checkbox = fieldNamed(name);
    if (!(checkbox instanceof PDFAcroTerminal)) throw new Error(`${name} has no widgets of its own`);
    const [widget] = checkbox.getWidgets();
    const normal = widget?.dict.lookup(PDFName.of('AP'), PDFDict).lookup(PDFName.of('N'), PDFDict);
    const onState = normal?.keys().find((key: PDFName) => key !== PDFName.of('Off'));
    if (!widget || !onState) throw new Error(`${name} has no "on" appearance`);
    checkbox.dict.set(PDFName.of('V'), onState);
    widget.dict.set(PDFName.of('AS'), onState);
  }
  acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.True);
  return document.save({ useObjectStreams: false });
}
