// The unit tests run what the build ships: React's API answered by Preact's compatibility layer
// (react-on-preact.js, read by webpack and by jest.config.js).
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import * as compat from 'preact/compat';
import * as compatClient from 'preact/compat/client';

describe('the runtime', () => {
  it('is Preact behind React’s names', () => {
    expect(React.createElement).toBe(compat.createElement);
    expect(ReactDOMClient.createRoot).toBe(compatClient.createRoot);
  });
});
