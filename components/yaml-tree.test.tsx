import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { YamlTree } from "./yaml-tree";

describe("YamlTree", () => {
  it("renders mappings, lists and multi-line strings as text", () => {
    const html = renderToStaticMarkup(
      <YamlTree value={{ task_id: "task_001", steps: ["read", "write"], note: "line 1\nline 2", done: false, n: 3, x: null }} />,
    );
    expect(html).toContain("task_id:");
    expect(html).toContain("<ol");
    expect(html).toContain("line 1\nline 2");
    expect(html).toContain("whitespace-pre-wrap");
    expect(html).toContain(">false<");
    expect(html).toContain(">null<");
  });

  it("escapes markup instead of rendering it", () => {
    const html = renderToStaticMarkup(<YamlTree value={{ body: "<script>alert(1)</script>" }} />);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });
});
