import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Age, RelativeTime } from "./relative-time";
import { ServerNowProvider } from "./server-now";

const ISO = "2026-11-20T00:30:00.000Z";
const EIGHT_DAYS_ON = Date.parse(ISO) + 8 * 86_400_000 + 3_600_000;

describe("RelativeTime before hydration", () => {
  it("counts a relative time's age from the server's clock: the browser's changes its seconds, not its width", () => {
    const html = renderToString(<ServerNowProvider now={EIGHT_DAYS_ON}><RelativeTime iso={ISO} /></ServerNowProvider>);
    expect(html).toContain(">8 d ago<");
    expect(html).toContain('title="2026-11-20 00:30:00 UTC"');
  });

  it("calls a message read just after the page's clock just now, and a backoff still to come by when it ends", () => {
    const html = renderToString(<ServerNowProvider now={Date.parse(ISO) - 3_000}><RelativeTime iso={ISO} /></ServerNowProvider>);
    expect(html).toContain(">just now<");
    const backoff = renderToString(<ServerNowProvider now={Date.parse(ISO) - 120_000}><RelativeTime iso={ISO} /></ServerNowProvider>);
    expect(backoff).toContain(">in 2 min<");
  });

  it("keeps the UTC date outside a page that says the server's time, and for the absolute variants", () => {
    expect(renderToString(<RelativeTime iso={ISO} />)).toContain(">11-20 00:30 UTC<");
    const absolute = renderToString(<ServerNowProvider now={EIGHT_DAYS_ON}><RelativeTime iso={ISO} variant="absolute" /></ServerNowProvider>);
    expect(absolute).toContain(">2026-11-20 00:30:00 UTC<");
  });

  it("gives an age as a duration from the server's clock too", () => {
    expect(renderToString(<ServerNowProvider now={Date.parse(ISO) + 12 * 60_000}><Age iso={ISO} /></ServerNowProvider>)).toContain(">12 min<");
    expect(renderToString(<Age iso={ISO} />)).toContain(">2026-11-20 00:30:00 UTC<");
  });
});
