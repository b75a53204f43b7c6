/**
 * Whether this code runs on the gateway (the server bundle in its JavaScript engine, which has no
 * document) rather than in a browser. Read once: the answer never changes within a process.
 */
export const onServer: boolean = typeof document === 'undefined';
