import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BodyDiff } from "./body-diff";

describe("BodyDiff", () => {
  it("renders added and removed lines as <ins>/<del> with +/- and spoken labels", () => {
    const html = renderToStaticMarkup(<BodyDiff before={"a: 1\nb: 2\n"} after={"a: 1\nb: 3\n"} />);
    expect(html).toContain("1 line added, 1 removed");
    expect(html).toMatch(/<del[^>]*>.*-.*removed: .*b: 2<\/del>/);
    expect(html).toMatch(/<ins[^>]*>.*\+.*added: .*b: 3<\/ins>/);
  });

  it("says so when nothing changed", () => {
    expect(renderToStaticMarkup(<BodyDiff before="a: 1\n" after="a: 1\n" />)).toContain("No changes yet");
  });
});
