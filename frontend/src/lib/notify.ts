// A tiny notification bus: the request layer speaks, the <Notifications> view listens.

export interface Notice {
  id: number;
  message: string;
  kind: 'error' | 'info';
}

type Listener = (notice: Notice) => void;
const listeners = new Set<Listener>();
let nextId = 1;

export function notify(message: string, kind: Notice['kind'] = 'error'): void {
  const notice = { id: nextId++, message, kind };
  listeners.forEach((listener) => listener(notice));
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Auto-close delay of a notification (spec §9). */
export const NOTICE_DURATION_MS = 1500;
