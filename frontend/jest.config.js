/** Unit tests: jsdom, swc transform, Testing Library; React 19 itself, as the build. */

module.exports = {
  testEnvironment: '<rootDir>/src/test/environment.js',
  roots: ['<rootDir>/src'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest'], '^.+\\.mjs$': ['@swc/jest'] },
  // wouter ships ES modules only; the tests run the real one.
  transformIgnorePatterns: ['/node_modules/(?!wouter/)'],
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test/style-stub.js' },
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
};
