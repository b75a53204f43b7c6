'use strict';

const path = require('path');
const { runDir } = require('./paths');

module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 18337),
  app: {
    // Generated per run by scripts/strapi.sh; the fallback is a fixed test value.
    keys: env.array('APP_KEYS', ['test-app-key-1', 'test-app-key-2']),
  },
  // Uploads (local provider) are written to <run dir>/public/uploads and served under /uploads/.
  dirs: {
    public: path.join(runDir, 'public'),
  },
  // No cron jobs, no update check, no telemetry.
  cron: { enabled: false },
  logger: {
    updates: { enabled: false },
    startup: { enabled: true },
  },
});
