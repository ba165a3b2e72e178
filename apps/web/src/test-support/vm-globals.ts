import * as webStreams from 'node:stream/web';

/**
 * The 'web' project runs each component file in a VM context of its own (pool 'vmThreads'):
 * jsdom there lacks the web streams Node has, which the SPA reads fetch bodies with.
 */
for (const name of [
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextDecoderStream',
  'TextEncoderStream',
] as const) {
  if (!(name in globalThis)) Object.assign(globalThis, { [name]: webStreams[name] });
}
