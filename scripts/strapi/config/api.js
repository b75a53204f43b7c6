'use strict';

module.exports = {
  rest: {
    // Strapi's defaults: 25 per page unless asked, at most 100 per page
    // (a larger pageSize is silently clamped to 100). The whole category tree
    // (36 entries) fits in one page of 100.
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
  },
};
