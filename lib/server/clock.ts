import "server-only";

/**
 * The server's clock for a page being rendered, in ms. A Server Component renders once a request
 * and never again in the browser, so this is one reading a request (the lint's purity rule is
 * for components that re-render).
 */
export function renderedAt(): number {
  return Date.now();
}
