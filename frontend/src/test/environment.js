// jsdom with Node's own fetch, so unit tests talk to a real HTTP server on loopback.
const { TestEnvironment } = require('jest-environment-jsdom');

class PortalEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, {
      fetch,
      Request,
      Response,
      Headers,
      FormData,
      Blob,
      File,
      AbortController,
      AbortSignal,
      TextEncoder,
      TextDecoder,
      ReadableStream,
      structuredClone,
    });
  }
}

module.exports = PortalEnvironment;
