import { useEffect, useRef } from 'react';

/** Calls `onTurnEnd` each time `running` goes from true to false. */
export function useTurnEnd(running: boolean, onTurnEnd: (() => void) | undefined): void {
  const was = useRef(running);
  useEffect(() => {
    if (was.current && !running) onTurnEnd?.();
    was.current = running;
  }, [running, onTurnEnd]);
}
