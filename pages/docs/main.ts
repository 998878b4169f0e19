// The API reference: swagger-ui (swagger-ui-dist, served from this origin) over this service's /openapi.json, with
// "Try it out" against the running service. No validator badge (it would call an outside host), no persisted
// authorization (a key typed into Authorize stays in memory) and no deep links (swagger-ui puts them as links inside
// each operation's toggle button, which keyboard and screen-reader users cannot use as two controls).
declare global {
  interface Window {
    SwaggerUIBundle?: (options: Record<string, unknown>) => unknown;
  }
}

/**
 * What swagger-ui renders without: a name for the server picker, and keyboard access to its scrollable code blocks
 * (WCAG 2.1.1). Applied to whatever it renders, whenever it renders (operations are drawn when opened).
 */
function patchAccessibility(root: HTMLElement): void {
  const patch = (): void => {
    for (const select of root.querySelectorAll<HTMLSelectElement>('select#servers:not([aria-label])')) select.setAttribute('aria-label', 'Server');
    for (const select of root.querySelectorAll<HTMLSelectElement>('select:not([aria-label]):not([id])')) select.setAttribute('aria-label', select.closest('.response-control-media-type, .content-type-wrapper') ? 'Media type' : 'Choice');
    for (const block of root.querySelectorAll<HTMLElement>('.microlight:not([tabindex]), .example:not([tabindex]), pre:not([tabindex])')) {
      block.tabIndex = 0;
    }
  };
  patch();
  new MutationObserver(patch).observe(root, { childList: true, subtree: true });
}

function start(): void {
  const ui = window.SwaggerUIBundle;
  const root = document.getElementById('swagger-ui');
  if (!ui || !root) {
    if (root) root.textContent = 'The API reference could not load its renderer.';
    return;
  }
  patchAccessibility(root);
  ui({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: -1,
    displayRequestDuration: true,
    persistAuthorization: false,
    validatorUrl: null,
    syntaxHighlight: { activated: true, theme: 'nord' },
    onComplete: () => {
      document.body.dataset.ready = 'true';
    },
  });
}

// The bundle is a deferred classic script; module scripts run after deferred ones, so it is there by now.
start();
export {};
