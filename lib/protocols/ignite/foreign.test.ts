import { afterEach, expect, it, vi } from "vitest";

afterEach(() => {
  vi.doUnmock("mailparser");
  vi.resetModules();
});

it("loads mailparser again after a failed load, so one bad moment does not fail every later file", async () => {
  let available = false;
  vi.doMock("mailparser", async (importOriginal) => {
    if (!available) throw new Error("EMFILE: too many open files");
    return importOriginal();
  });
  const { decodeHeaderValue } = await import("./foreign");
  const encoded = "=?UTF-8?B?5pel5pys6Kqe?=";
  // Vitest wraps the factory's error in its own; any failure will do here.
  await expect(decodeHeaderValue(encoded)).rejects.toThrow();
  available = true;
  await expect(decodeHeaderValue(encoded)).resolves.toBe("日本語");
});
