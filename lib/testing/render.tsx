// Renders a client component as the root layout does: under the catalogs the server hands to the
// browser, after the trip as data (JSON) that the browser's copy takes.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CatalogsProvider } from "@/lib/client/catalogs";
import { CATALOGS, type ProtocolCatalog } from "@/lib/protocols";

const HANDED_DOWN = JSON.parse(JSON.stringify(CATALOGS)) as ProtocolCatalog[];

export function renderWithCatalogs(node: ReactNode): string {
  return renderToStaticMarkup(<CatalogsProvider catalogs={HANDED_DOWN}>{node}</CatalogsProvider>);
}
