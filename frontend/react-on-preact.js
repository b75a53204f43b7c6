// The app is written against React's API and runs on Preact's compatibility layer: React's module
// names and what answers them, read by webpack (the build) and Jest (the unit tests), so both run
// what ships. Why: react-dom was 59 of the 114 KB (gzip) a phone fetched and ran before any page
// (docs/quality.md, issue 25).
module.exports = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react-dom/test-utils': 'preact/test-utils',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};
