import { useEffect, useState } from 'react';
import { getRunBlob } from '../api/run-step-files';

export type BlobUrlState =
  { status: 'loading' } | { status: 'ready'; url: string } | { status: 'error'; error: unknown };

/**
 * An object URL for a picture of the run (an <img> cannot send the bearer header itself); revoked
 * when the path changes or the component leaves.
 */
export function useBlobUrl(path: string): BlobUrlState {
  const [state, setState] = useState<{ path: string; value: BlobUrlState }>({
    path,
    value: { status: 'loading' },
  });
  // A new path shows progress at once instead of the previous picture.
  if (state.path !== path) setState({ path, value: { status: 'loading' } });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    getRunBlob(path, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ path, value: { status: 'ready', url } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ path, value: { status: 'error', error } });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);

  return state.path === path ? state.value : { status: 'loading' };
}
