import { describe, expect, it } from "vitest";
import type { Folder } from "@/lib/model";
import type { ParsedMessage } from "@/lib/protocols/types";
import { parseDeadLetterBody } from "./dead-letter";
import { toUtcIso } from "./dates";
import { describeIgniteFile, parseIgniteFile } from "./parse";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const HEAD = "MIME-Version: 1.0\nMessage-ID: <m@ignite.local>\nDate: Fri, 20 Nov 2026 09:15:12 +0900\n";

function parse(bytes: Buffer | string, folder: Folder = "queue"): Promise<ParsedMessage> {
  const buf = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  const relPath = `.ignite/queue/leader/${folder === "processed" ? "processed/" : ""}x.mime`;
  return parseIgniteFile({
    relPath, placement: { agent: "leader", folder }, bytes: buf,
    found: { relPath, kind: "file", size: buf.length, mtimeMs: 0, ino: 1 },
  });
}

describe("foreign encodings are decoded with mailparser", () => {
  it("decodes RFC 2047 From/Subject and a base64 UTF-8 body; ignite stays raw", async () => {
    const text = `${HEAD}From: =?UTF-8?B?${b64("リーダー")}?=\nTo: ignitian_1\nSubject: =?UTF-8?Q?caf=C3=A9?= ok\n` +
      `X-IGNITE-Type: =?UTF-8?B?${b64("task")}?=\nContent-Type: text/x-yaml; charset=utf-8\n` +
      `Content-Transfer-Encoding: base64\n\n${b64("title: 使い方\n")}\n`;
    const d = await describeIgniteFile(Buffer.from(text));
    expect(d.headers).toContainEqual(["From", "リーダー"]);
    expect(d.headers).toContainEqual(["Subject", "café ok"]);
    expect(d.body).toBe("title: 使い方\n");
    expect(d.data).toEqual({ title: "使い方" });
    expect(d.ignite?.from).toBe(`=?UTF-8?B?${b64("リーダー")}?=`);
    expect(d.ignite?.body).toBe(`${b64("title: 使い方\n")}\n`);
    const p = await parse(text);
    expect(p).toMatchObject({ from: "リーダー", type: "task", body: "title: 使い方\n", problems: [] });
  });

  it("decodes a quoted-printable body", async () => {
    const text = `${HEAD}From: a\nTo: b\nContent-Type: text/x-yaml; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n` +
      "title: caf=C3=A9 =E4=BD=BF=\n=E3=81=84\n";
    expect((await describeIgniteFile(Buffer.from(text))).body).toBe("title: café 使い\n");
  });

  it("decodes iso-2022-jp words and body", async () => {
    const jis = Buffer.from([0x1b, 0x24, 0x42, 0x24, 0x46, 0x24, 0x39, 0x24, 0x48, 0x1b, 0x28, 0x42]); // てすと
    const bytes = Buffer.concat([
      Buffer.from(`${HEAD}From: a\nTo: b\nSubject: =?ISO-2022-JP?B?${jis.toString("base64")}?=\n` +
        "Content-Type: text/x-yaml; charset=ISO-2022-JP\nContent-Transfer-Encoding: 7bit\n\ntitle: "),
      jis, Buffer.from("\n"),
    ]);
    const d = await describeIgniteFile(bytes);
    expect(d.headers).toContainEqual(["Subject", "てすと"]);
    expect(d.body).toBe("title: てすと\n");
    expect((await parse(bytes)).problems).toEqual([]);
  });

  it("decodes a raw shift_jis body and says the IGNITE tools cannot read it", async () => {
    const sjis = Buffer.from([0x83, 0x65, 0x83, 0x58, 0x83, 0x67]);
    expect(new TextDecoder("shift_jis").decode(sjis)).toBe("テスト");
    const bytes = Buffer.concat([
      Buffer.from(`${HEAD}From: a\nTo: b\nContent-Type: text/x-yaml; charset=Shift_JIS\nContent-Transfer-Encoding: 8bit\n\ntitle: `),
      sjis, Buffer.from("\n"),
    ]);
    const p = await parse(bytes);
    expect(p.body).toBe("title: テスト\n");
    expect(p.problems).toEqual(["The file is not valid UTF-8, so the IGNITE tools cannot read it; it was decoded as shift_jis."]);
    expect((await describeIgniteFile(bytes)).data).toEqual({ title: "テスト" });
  });
});

describe("header and body edge cases", () => {
  it("reads CRLF files", async () => {
    const text = "Message-ID: <c@x>\r\nFrom: a\r\nTo: b, c\r\nDate: Fri, 20 Nov 2026 09:15:12 +0900\r\nX-IGNITE-Status: delivered\r\n\r\nk: v\r\n";
    const p = await parse(text, "processed");
    expect(p).toMatchObject({ from: "a", to: ["b", "c"], status: "delivered", body: "k: v\r\n", problems: [] });
    const d = await describeIgniteFile(Buffer.from(text));
    expect(d.data).toEqual({ k: "v" });
    expect(d.ignite?.body).toBe("k: v\n");
  });

  it("joins continuation lines and lets a later duplicate win", async () => {
    const text = `${HEAD}From: a\nTo: b,\n  c\nX-IGNITE-Status: processing\nX-IGNITE-Error-Reason: long\n\treason\nX-IGNITE-Status: delivered\n\nk: v\n`;
    const p = await parse(text, "processed");
    expect(p).toMatchObject({ to: ["b", "c"], status: "delivered", rawStatus: "delivered" });
    const d = await describeIgniteFile(Buffer.from(text));
    expect(d.headers.filter(([n]) => n === "X-IGNITE-Status")).toEqual([["X-IGNITE-Status", "processing"], ["X-IGNITE-Status", "delivered"]]);
    expect(d.ignite?.error_reason).toBe("long reason");
  });

  it("reports a missing Message-ID, From and To, and a bad Date", async () => {
    const p = await parse("Date: yesterday\nX-IGNITE-Type: note\n\nk: v\n");
    expect(p).toMatchObject({ messageId: null, date: null, type: "note", priority: "normal", status: "queued" });
    expect(p.problems).toEqual([
      "The Message-ID header is missing.", "The From header is missing.", "The To header is missing.",
      'The Date header "yesterday" is not a valid RFC 2822 date.',
    ]);
  });

  it("says where a YAML body breaks", async () => {
    const p = await parse(`${HEAD}From: a\nTo: b\n\nk: [1,\nbad: : :\n`);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]).toMatch(/^The body is not valid YAML \(line \d+, column \d+\): /);
    expect(p.status).toBe("queued");
  });

  it("falls back to a legacy type/from/to body, never to the file name", async () => {
    const p = await parse(`${HEAD}\ntype: task_assignment\nfrom: coordinator\nto: [ignitian_1]\npayload:\n  x: 1\n`);
    expect(p).toMatchObject({ type: "task_assignment", from: "coordinator", to: ["ignitian_1"], problems: [] });
  });

  it("maps processed statuses: '' → processing, error is its own (the monitor never retries it), completed stays", async () => {
    for (const [raw, status] of [["", "processing"], ["error", "error"], ["completed", "completed"], ["retrying", "processing"]]) {
      const p = await parse(`${HEAD}From: a\nTo: b\nX-IGNITE-Status: ${raw}\n\n`, "processed");
      expect(p.status, raw).toBe(status);
      expect(p.rawStatus).toBe(raw === "" ? null : raw);
    }
  });

  it("marks a file with only an empty line, or headerless text, invalid", async () => {
    expect((await parse("\n\nbody only\n")).status).toBe("invalid");
    expect((await parse("\n\nbody only\n")).problems[0]).toMatch(/No headers/);
  });
});

describe("dates", () => {
  it("converts RFC 2822 and ISO 8601 to UTC, rejecting nonsense", () => {
    expect(toUtcIso("Fri, 20 Nov 2026 09:15:12 +0900")).toBe("2026-11-20T00:15:12.000Z");
    expect(toUtcIso("20 Nov 2026 09:15 GMT")).toBe("2026-11-20T09:15:00.000Z");
    expect(toUtcIso("2026-11-20T09:59:49+09:00")).toBe("2026-11-20T00:59:49.000Z");
    expect(toUtcIso("Fri, 31 Feb 2026 09:15:12 +0900")).toBeNull();
    expect(toUtcIso("next tuesday")).toBeNull();
  });
});

describe("parseDeadLetterBody", () => {
  it("falls back to a line reader when the YAML does not parse, and refuses unsafe names", () => {
    const body = 'original_file: "../../x.mime"\nfailure_info: [\noriginal_message: |\n  Message-ID: <o@x>\n  To: ../evil, b\n\n  k: v\n';
    expect(parseDeadLetterBody(body)).toEqual({
      originalFile: null, originalMessageId: "<o@x>", originalAgent: null,
      originalText: "Message-ID: <o@x>\nTo: ../evil, b\n\nk: v\n", retryCount: null, lastError: null, movedAt: null,
    });
  });
});

describe("oversized input", () => {
  it("describes bytes over 8 MiB by their headers only", async () => {
    const bytes = Buffer.concat([Buffer.from(`${HEAD}From: a\nTo: b\n\n`), Buffer.alloc(8 * 1024 * 1024, 0x61)]);
    const d = await describeIgniteFile(bytes);
    expect(d).toMatchObject({ body: "", data: null });
    expect(d.ignite).toMatchObject({ from: "a", body: "" });
  });

  it("reads a head cut before its empty line, dropping the cut line", async () => {
    const head = Buffer.from(`${HEAD}From: a\nTo: b\nX-IGNITE-Type: lon`);
    const relPath = ".ignite/queue/leader/x.mime";
    const p = await parseIgniteFile({
      relPath, placement: { agent: "leader", folder: "queue" }, bytes: head,
      found: { relPath, kind: "file", size: 9 * 1024 * 1024, mtimeMs: 0, ino: 1 },
    });
    expect(p).toMatchObject({ status: "queued", from: "a", to: ["b"], type: null, body: "" });
  });
});

describe("retries past the maximum", () => {
  it("flags a Retry-Count past the monitor's maximum of 3, not one at it", async () => {
    const p4 = await parse(`${HEAD}From: a\nTo: b\nX-IGNITE-Retry-Count: 4\n\n`);
    expect(p4.problems.join(" ")).toMatch(/Retried 4 times, past the maximum of 3/);
    const p3 = await parse(`${HEAD}From: a\nTo: b\nX-IGNITE-Retry-Count: 3\n\n`);
    expect(p3.problems.join(" ")).not.toMatch(/past the maximum/);
  });
});
