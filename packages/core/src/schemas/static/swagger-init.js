// Starts Swagger UI on the documentation page of @restframework/core (a file of its own, so the
// page's Content-Security-Policy needs no inline script). The document's URL is on the root.
const root = document.getElementById('swagger-ui');
if (root && typeof SwaggerUIBundle === 'function') {
  window.ui = SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    domNode: root,
    deepLinking: true,
    // No third-party validator badge: nothing leaves this site.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 1,
    docExpansion: 'list',
    tryItOutEnabled: false,
  });
}
