// 语音朗读's state for the toolbar: whether the page is being read, start and stop. The reading
// itself (speech.ts) is its own chunk, loaded on the first press.
import { useCallback, useEffect, useRef, useState } from 'react';

import { onRouteChange } from '../../lib/route-change';
import { currentVoice } from './voices';

/** The element whose text is read: the page's main content (the skip link's target). */
export const MAIN_CONTENT_ID = 'main-content';

export interface ReadAloud {
  speaking: boolean;
  start: () => void;
  stop: () => void;
}

export function useReadAloud(): ReadAloud {
  const [speaking, setSpeaking] = useState(false);
  const stopCurrent = useRef<(() => void) | null>(null);
  // Each start counts; a slow chunk load answered after a stop (or a later start) is dropped.
  const run = useRef(0);

  const stop = useCallback(() => {
    run.current += 1;
    stopCurrent.current?.();
    stopCurrent.current = null;
    setSpeaking(false);
  }, []);

  const start = useCallback(() => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    stop();
    const mine = run.current;
    setSpeaking(true);
    import(/* webpackChunkName: "reading-speech" */ './speech')
      .then(({ readAloud }) => {
        if (run.current !== mine) return;
        stopCurrent.current = readAloud(main, currentVoice(), () => {
          if (run.current !== mine) return;
          stopCurrent.current = null;
          setSpeaking(false);
        });
      })
      .catch(() => {
        if (run.current === mine) setSpeaking(false);
      });
  }, [stop]);

  // Another page is another text: reading stops when the route changes, and when the toolbar goes.
  useEffect(() => {
    const stopFollowing = onRouteChange(stop);
    return () => {
      stopFollowing();
      run.current += 1;
      stopCurrent.current?.();
    };
  }, [stop]);

  return { speaking, start, stop };
}
