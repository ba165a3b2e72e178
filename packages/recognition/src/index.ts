export * from './pdf.js';
export * from './text-layer.js';
export * from './checkbox.js';
export * from './ocr.js';
export * from './render.js';
export * from './read-statement.js';
export * from './form-fields.js';
export * from './template-match.js';
