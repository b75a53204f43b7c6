// The HTTP status of the page the server renders: 404 for a route or an article that does not
// exist, so crawlers drop it and the gateway keeps it only briefly. The server entry provides a
// holder per render; in the browser there is none and the hook does nothing.
import { createContext, useContext } from 'react';

export interface ResponseStatus {
  status: number;
}

export const ResponseStatusContext = createContext<ResponseStatus | null>(null);

/**
 * Says, during a server render, that the page answers `status` (the last page rendered wins);
 * `null` says nothing, leaving what an outer component said.
 */
export function useResponseStatus(status: number | null): void {
  const holder = useContext(ResponseStatusContext);
  if (holder && status !== null) holder.status = status;
}
