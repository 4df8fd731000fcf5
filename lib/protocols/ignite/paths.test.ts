import { expect, it } from "vitest";
import { originalNameOf } from "./paths";

it("requeues an original under its own name only when that is a message the monitor takes", () => {
  const letter = ".ignite/queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime";
  expect(originalNameOf(letter, "task_assignment_1795135151004518.mime")).toBe("task_assignment_1795135151004518.mime");
  for (const odd of ["authorized_keys", "notes.txt", ".hidden.mime", null]) expect(originalNameOf(letter, odd)).toBe("task_assignment_1795135151004518.mime");
});
