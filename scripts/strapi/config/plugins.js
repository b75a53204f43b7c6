'use strict';

module.exports = () => ({
  upload: {
    config: {
      sizeLimit: 10 * 1024 * 1024,
      // No responsive variants / thumbnails (the seed files are SVG/PDF/MP4 anyway).
      breakpoints: {},
    },
  },
});
