// Renders /api/openapi.json with the embedded Swagger UI. Nothing loads from another origin:
// the validator badge (which would fetch validator.swagger.io) is off, and so is every link
// out of the page's own document.
'use strict';
window.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('api-reference');
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.spec,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
