'use strict';

// The admin panel is neither built nor served: this instance only exists to
// answer the REST content API for tests. The secrets are generated per run by
// scripts/strapi.sh; the fallbacks are fixed test values.
module.exports = ({ env }) => ({
  serveAdminPanel: false,
  auth: {
    secret: env('ADMIN_JWT_SECRET', 'test-admin-jwt-secret'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT', 'test-api-token-salt'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT', 'test-transfer-token-salt'),
    },
  },
  secrets: {
    // Lets Strapi keep the API token retrievable (encrypted at rest).
    encryptionKey: env('ENCRYPTION_KEY', 'test-encryption-key-0123456789abcdef'),
  },
  ai: { enabled: false },
  flags: {
    nps: false,
    promoteEE: false,
  },
});
