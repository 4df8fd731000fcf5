import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PROTOCOLS } from "@/lib/model";
import { CATALOGS, VOCABULARY, type ProtocolCatalog } from "@/lib/protocols";
import { CatalogsProvider, useVocabulary } from "./catalogs";

/** What the browser receives: the catalogs after a trip as plain data. */
const handedDown = () => JSON.parse(JSON.stringify(CATALOGS)) as ProtocolCatalog[];

function Words({ protocol, status }: { protocol: (typeof PROTOCOLS)[number]; status: string }) {
  const words = useVocabulary();
  const d = words.statusDefinition(status, protocol);
  return <p>{`${words.catalogOf(protocol).label}|${d.label}|${d.tone}|${words.inStatusOrder(["zzz", status, "queued"]).join(",")}`}</p>;
}

describe("the catalogs in the browser", () => {
  it("are plain data: every catalog survives the trip from the server whole", () => {
    expect(handedDown()).toEqual(CATALOGS);
  });

  it("word every status as the server does, once handed down", () => {
    const catalogs = handedDown();
    for (const protocol of PROTOCOLS) {
      for (const status of [...VOCABULARY.statuses, "weird_word"]) {
        const html = renderToStaticMarkup(<CatalogsProvider catalogs={catalogs}><Words protocol={protocol} status={status} /></CatalogsProvider>);
        const d = VOCABULARY.statusDefinition(status, protocol);
        const order = VOCABULARY.inStatusOrder(["zzz", status, "queued"]).join(",");
        expect(html).toBe(`<p>${VOCABULARY.catalogOf(protocol).label}|${d.label}|${d.tone}|${order}</p>`);
      }
    }
  });

  it("say plainly that a component outside the provider has no words", () => {
    expect(() => renderToStaticMarkup(<Words protocol="ignite" status="queued" />)).toThrow(/needs a <CatalogsProvider>/);
  });
});
