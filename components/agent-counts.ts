// The per-agent count columns, shared by the overview table and the agent card; each view styles
// a count's tone its own way.
export const AGENT_COUNTS = [
  { key: "queued", label: "Queued", tone: "plain" },
  { key: "processing", label: "Processing", tone: "plain" },
  { key: "delivered", label: "Delivered", tone: "plain" },
  { key: "retrying", label: "Retrying", tone: "warn" },
  { key: "dead", label: "Dead", tone: "bad" },
  { key: "stuck", label: "Stuck", tone: "alarm" },
] as const;

export type CountTone = (typeof AGENT_COUNTS)[number]["tone"];
