import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { MarkdownView } from "./markdown-view";

it("renders a board's shapes and escapes every character of the file", () => {
  const html = renderToStaticMarkup(
    <MarkdownView text={"# Board <b>\n| a | **b** |\n|---|---|\n| <i>x</i> | `y` |\n- <script>alert(1)</script>\n[l](javascript:alert(1))"} />,
  );
  expect(html).toContain("<h2 ");
  expect(html).toContain("Board &lt;b&gt;</h2>");
  expect(html).toMatch(/<th [^>]*><strong>b<\/strong><\/th>/);
  expect(html).toContain("&lt;i&gt;x&lt;/i&gt;");
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  expect(html).not.toMatch(/<(script|i|b|a)[ >]/);
});
