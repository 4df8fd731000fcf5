// The goals the demo team works on, in rotation. The text mixes English and Japanese the way
// real IGNITE teams write (see the fixture); everything here ends up in YAML message bodies.
export interface DemoTask {
  id: string;
  title: string;
  description: string;
  instructions: string[];
  deliverables: string[];
  skills: string[];
  estimate: number;
}

export interface DemoGoal {
  slug: string;
  repository: string;
  /** The issue of the first rotation; later rotations add 100 per round. */
  issue: number;
  goal: string;
  context: string;
  requirements: string[];
  approach: string;
  risks: string[];
  tasks: DemoTask[];
  /** What the evaluator may flag (and hand to the innovator). */
  finding: { description: string; location: string; recommendation: string };
}

const task = (
  id: string, title: string, description: string, instructions: string[], deliverables: string[],
  skills: string[], estimate: number,
): DemoTask => ({ id, title, description, instructions, deliverables, skills, estimate });

export const GOALS: readonly DemoGoal[] = [
  {
    slug: "readme", repository: "owner/repo", issue: 42,
    goal: "README.mdを整備する",
    context: "初めての利用者向けにインストール手順と使い方を追加したい",
    requirements: ["インストール手順を記載する", "基本的な使い方の例を載せる", "ライセンス表記を追加する"],
    approach: "骨組みを先に作り、本文を並行で書く",
    risks: ["インストール手順がOSごとに異なる"],
    tasks: [
      task("task_001", "README骨組み作成", "README.mdの見出し構成を作成する",
        ["既存のREADME.mdを読む", "概要・インストール・使い方・ライセンスの見出しを作る"], ["README.md"], ["markdown"], 600),
      task("task_002", "インストール手順の執筆", "Linux/macOS のインストール手順を書く",
        ["動作要件を確認する", "Linux と macOS の手順を docs/install.md に書く"], ["docs/install.md"], ["markdown", "shell"], 900),
      task("task_003", "使い方セクションの執筆", "基本的な使い方の例を書く",
        ["README.md の「使い方」見出しの下に書く", "コマンド例は実際に実行して確かめる"], ["README.md"], ["markdown"], 600),
    ],
    finding: { description: "LICENSE へのリンクが404", location: "README.md:18", recommendation: "LICENSE を追加するか、リンクを外す" },
  },
  {
    slug: "ci_cache", repository: "owner/repo", issue: 57,
    goal: "Speed up CI with an npm cache",
    context: "CI の npm install が毎回3分かかっている",
    requirements: ["Cache ~/.npm between runs", "キャッシュキーは lockfile のハッシュにする", "Report the time saved"],
    approach: "Use the built-in cache of actions/setup-node first, measure, then tune",
    risks: ["A stale cache could hide dependency problems"],
    tasks: [
      task("task_001", "Enable setup-node cache", "actions/setup-node の cache: npm を有効にする",
        ["Edit .github/workflows/ci.yml", "Set cache: npm and cache-dependency-path"], [".github/workflows/ci.yml"], ["github-actions"], 300),
      task("task_002", "キャッシュキーの設計", "lockfile と Node のバージョンからキーを作る",
        ["package-lock.json のハッシュを使う", "Node のメジャーバージョンをキーに含める"], [".github/workflows/ci.yml"], ["github-actions"], 600),
      task("task_003", "Measure build times", "キャッシュ導入前後の所要時間を比較する",
        ["Run the workflow 5 times with and without the cache", "結果を docs/ci.md にまとめる"], ["docs/ci.md"], ["github-actions", "markdown"], 900),
    ],
    finding: { description: "Cache key ignores the Node version", location: ".github/workflows/ci.yml:24", recommendation: "node-version をキーに含める" },
  },
  {
    slug: "flaky_login", repository: "acme/web-app", issue: 118,
    goal: "ログインE2Eテストの不安定さを解消する",
    context: "login.spec.ts fails about 1 in 20 runs on CI",
    requirements: ["ローカルで再現する", "Replace fixed sleeps with proper waits", "CI で50回連続成功させる"],
    approach: "再現 → 原因の特定 → 待機処理の修正の順で進める",
    risks: ["The flake may come from the test server, not the test"],
    tasks: [
      task("task_001", "Reproduce the flake", "login.spec.ts を100回実行して失敗パターンを集める",
        ["npx playwright test login.spec.ts --repeat-each=100", "失敗時のトレースを保存する"], ["reports/flake-analysis.md"], ["playwright"], 900),
      task("task_002", "待機処理の修正", "waitForTimeout を data-testid ベースの待機に置き換える",
        ["e2e/login.spec.ts の固定待ちを削除する", "Wait for the dashboard heading instead"], ["e2e/login.spec.ts"], ["playwright", "typescript"], 600),
      task("task_003", "Add a flake report to CI", "リトライされたテストを CI のサマリーに出す",
        ["Enable the JSON reporter", "GitHub step summary に一覧を書く"], [".github/workflows/e2e.yml"], ["github-actions"], 600),
    ],
    finding: { description: "One waitForTimeout(500) is left in the logout step", location: "e2e/login.spec.ts:57", recommendation: "toBeVisible() で待つ" },
  },
  {
    slug: "rate_limit", repository: "acme/api-server", issue: 203,
    goal: "公開APIにレート制限を追加する",
    context: "1トークンあたり 100 req/min に制限したい",
    requirements: ["Token bucket per API token", "超過時は 429 と Retry-After を返す", "負荷テストで確認する"],
    approach: "ミドルウェアを先に作り、レスポンス形式と負荷テストを並行で進める",
    risks: ["複数インスタンス間でカウンタを共有する必要がある"],
    tasks: [
      task("task_001", "Token bucket middleware", "トークンごとのバケットを実装する",
        ["src/middleware/rateLimit.ts を作る", "Use Redis INCR with a 60 s expiry"], ["src/middleware/rateLimit.ts"], ["typescript", "redis"], 900),
      task("task_002", "429 レスポンス", "超過時に 429 と Retry-After ヘッダーを返す",
        ["エラーレスポンスの形式を既存APIに合わせる", "Add unit tests"], ["src/middleware/rateLimit.ts", "test/rateLimit.test.ts"], ["typescript"], 600),
      task("task_003", "負荷テストとドキュメント", "k6 で制限が効くことを確認し、docs に書く",
        ["k6 script: 150 req/min for one token", "docs/api/rate-limits.md を書く"], ["docs/api/rate-limits.md"], ["k6", "markdown"], 900),
    ],
    finding: { description: "Retry-After is sent in milliseconds", location: "src/middleware/rateLimit.ts:41", recommendation: "秒単位の整数にする" },
  },
];

/** The goal of rotation `cycle` (negative cycles count back from the end: the seeded history). */
export function goalForCycle(cycle: number, goals: readonly DemoGoal[] = GOALS): { goal: DemoGoal; issue: number } {
  const n = goals.length;
  const goal = goals[((cycle % n) + n) % n];
  if (!goal) throw new Error("no goals");
  return { goal, issue: goal.issue + Math.floor(cycle / n) * 100 };
}

export const threadIdFor = (goal: DemoGoal, issue: number) => `thr_${goal.slug}_${issue}`;

/** A goal for a user_goal the demo did not write (e.g. sent from Mailroom's compose page). */
export function adHocGoal(text: string, repository: string, issue: number): DemoGoal {
  const base = GOALS[0];
  if (!base) throw new Error("no goals");
  return { ...base, slug: "adhoc", repository, issue, goal: text, context: text };
}
