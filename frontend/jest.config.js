/** Unit tests: jsdom, swc transform, Testing Library. */
module.exports = {
  testEnvironment: '<rootDir>/src/test/environment.js',
  roots: ['<rootDir>/src'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest'] },
  // wouter ships ES modules only; the router test runs the real one.
  transformIgnorePatterns: ['/node_modules/(?!wouter/)'],
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test/style-stub.js' },
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
};
