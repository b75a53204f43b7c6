/** Unit tests: jsdom, swc transform, Testing Library; React's API on Preact, as the build. */
const escape = (name) => name.replace(/[/.]/g, '\\$&');
const preact = Object.fromEntries(Object.entries(require('./react-on-preact')).map(([name, to]) => [`^${escape(name)}$`, to]));

module.exports = {
  testEnvironment: '<rootDir>/src/test/environment.js',
  roots: ['<rootDir>/src'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest'], '^.+\\.mjs$': ['@swc/jest'] },
  // wouter and Preact ship ES modules only; the tests run the real ones.
  transformIgnorePatterns: ['/node_modules/(?!wouter/|preact/)'],
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test/style-stub.js', ...preact },
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
};
