import { Transform, pipeline, type Readable } from 'node:stream';

/**
 * `source` passed through, ended with `reason` when no byte has moved for `stallMs`: a reader
 * that stops reading (or a producer that stops producing) cannot hold what the stream holds (a
 * connection in an open transaction, a thread, a slot) for ever. Destroying the result destroys
 * the source, and the other way round.
 */
export function endIfStalled(source: Readable, stallMs: number, reason: () => Error): Readable {
  let timer: NodeJS.Timeout | undefined;
  const guarded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arm();
      done(null, chunk);
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => guarded.destroy(reason()), stallMs);
    timer.unref();
  };
  arm();
  pipeline(source, guarded, () => clearTimeout(timer));
  guarded.on('close', () => clearTimeout(timer));
  return guarded;
}
