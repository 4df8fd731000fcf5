// How a per-agent count is flagged; each view (the overview's table, the agent card) styles a tone its own way.
export type CountTone = "plain" | "warn" | "bad" | "alarm";
