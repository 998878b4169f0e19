// The API reference: swagger-ui (swagger-ui-dist, served from this origin) over this service's /openapi.json, with
// "Try it out" against the running service. No validator badge (it would call an outside host) and no persisted
// authorization (a key typed into Authorize stays in memory).
declare global {
  interface Window {
    SwaggerUIBundle?: (options: Record<string, unknown>) => unknown;
  }
}

function start(): void {
  const ui = window.SwaggerUIBundle;
  const root = document.getElementById('swagger-ui');
  if (!ui || !root) {
    if (root) root.textContent = 'The API reference could not load its renderer.';
    return;
  }
  ui({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: -1,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
    validatorUrl: null,
    onComplete: () => {
      document.body.dataset.ready = 'true';
    },
  });
}

// The bundle is a deferred classic script; module scripts run after deferred ones, so it is there by now.
start();
export {};
