'use strict';

const { factories } = require('@strapi/strapi');

// Default REST routes. Writes need a token with write rights; the seeded
// token is read-only and the Public role is not used (no users-permissions).
module.exports = factories.createCoreRouter('api::article.article');
