// The unit tests run what the build ships: React 19 itself (no substitute behind React's names).
import { version as reactVersion } from 'react';
import { version as domVersion } from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';

describe('the runtime', () => {
  it('is React 19, with the client that hydrates server-rendered pages', () => {
    expect(reactVersion).toMatch(/^19\./);
    expect(domVersion).toBe(reactVersion);
    expect(typeof ReactDOMClient.hydrateRoot).toBe('function');
  });
});
